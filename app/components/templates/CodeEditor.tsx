import { Box, Button, Group, Input, Loader, Textarea, useComputedColorScheme } from "../../utils/mantine";
import Editor, { loader } from "@monaco-editor/react";
import { IconArrowsMaximize, IconArrowsMinimize } from "@tabler/icons-react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";

// Monaco comes from the console's own files (public/monaco, copied at build), never a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

interface Props {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  readOnly?: boolean;
}

/** Leaves full screen on Escape; Monaco keeps the Escape it needs itself (closing a suggestion). */
function useEscapeToLeave(active: boolean, leave: () => void) {
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") leave();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [active, leave]);
}

/**
 * An HTML source field. Without JavaScript (and until hydration) a plain textarea of the form;
 * then Monaco, with a hidden input that keeps the form's value, and a full-screen mode.
 */
export function CodeEditor({ name, label, defaultValue, error, readOnly }: Props) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const scheme = useComputedColorScheme("light");
  const [value, setValue] = useState(defaultValue);
  const [fullscreen, setFullscreen] = useState(false);
  const leave = useCallback(() => setFullscreen(false), []);
  useEscapeToLeave(fullscreen, leave);

  if (!hydrated) {
    return (
      <Textarea
        name={name}
        label={label}
        defaultValue={defaultValue}
        error={error}
        readOnly={readOnly}
        rows={24}
        resize="vertical"
        spellCheck={false}
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 13 } }}
      />
    );
  }

  return (
    <Input.Wrapper label={label} error={error} labelElement="div">
      <input type="hidden" name={name} value={value} />
      <Box
        data-testid="code-editor"
        data-fullscreen={fullscreen || undefined}
        style={
          fullscreen
            ? { position: "fixed", inset: 0, zIndex: 200, display: "flex", flexDirection: "column", background: "var(--mantine-color-body)", padding: 12 }
            : { border: `1px solid ${error ? "var(--mantine-color-error)" : "var(--mantine-color-default-border)"}`, borderRadius: 4 }
        }
      >
        <Group justify="flex-end" p={4}>
          <Button
            size="compact-sm"
            variant="subtle"
            aria-pressed={fullscreen}
            leftSection={fullscreen ? <IconArrowsMinimize size={16} aria-hidden /> : <IconArrowsMaximize size={16} aria-hidden />}
            onClick={() => setFullscreen((on) => !on)}
          >
            {fullscreen ? t("resources:templates.editor.exitFullscreen") : t("resources:templates.editor.fullscreen")}
          </Button>
        </Group>
        <Box style={fullscreen ? { flex: 1, minHeight: 0 } : { height: "60vh", minHeight: 320 }}>
          <Editor
            language="html"
            value={value}
            onChange={(next) => setValue(next ?? "")}
            theme={scheme === "dark" ? "vs-dark" : "light"}
            loading={<Loader size="sm" aria-label={t("resources:templates.editor.loadingEditor")} />}
            options={{
              ariaLabel: label,
              readOnly,
              automaticLayout: true,
              minimap: { enabled: false },
              wordWrap: "on",
              fontSize: 13,
              scrollBeyondLastLine: false,
              tabSize: 2,
            }}
          />
        </Box>
      </Box>
    </Input.Wrapper>
  );
}
