import { Alert, Anchor, Badge, Code, Group, Stack, Text, Title } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { sandboxedHtml } from "../../utils/sandboxed-html";
import type { PreviewOutcome } from "../../common/template-preview";

/** The rendered mail: subject, the HTML in a frame that runs nothing and loads nothing, the text part. */
export function PreviewPane({ outcome }: { outcome: PreviewOutcome }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="template-preview">
      <Title order={2} size="h4">
        {t("resources:templates.editor.previewHeading")}
      </Title>
      {!outcome.ok ? (
        <Alert color="red" role="alert" data-testid="preview-error">
          {outcome.message.startsWith("errors:") ? t(outcome.message) : outcome.message}
        </Alert>
      ) : (
        <>
          <Group gap="xs">
            {outcome.preview.sample ? (
              <Badge color="yellow" variant="light" data-testid="preview-sample">
                {t("resources:templates.editor.sample")}
              </Badge>
            ) : (
              <Text size="sm" c="dimmed">
                {t("resources:templates.editor.renderedWith")}{" "}
                <Anchor component={Link} to={`/inbox-items/id/${encodeURIComponent(outcome.preview.inboxItemId ?? "")}`}>
                  {t("resources:templates.editor.openNotice")}
                </Anchor>
              </Text>
            )}
          </Group>
          <Text size="sm" data-testid="preview-subject">
            <b>{t("resources:templates.editor.subject")}:</b> {outcome.preview.subject}
          </Text>
          <iframe
            title={t("resources:templates.editor.previewFrame")}
            sandbox=""
            srcDoc={sandboxedHtml(outcome.preview.html)}
            style={{ width: "100%", height: "60vh", minHeight: 320, border: "1px solid var(--mantine-color-default-border)", background: "#fff" }}
          />
          <details>
            <summary>
              <Text span size="sm">
                {t("resources:templates.editor.plainText")}
              </Text>
            </summary>
            <Code block data-testid="preview-text" style={{ whiteSpace: "pre-wrap" }}>
              {outcome.preview.text}
            </Code>
          </details>
        </>
      )}
    </Stack>
  );
}
