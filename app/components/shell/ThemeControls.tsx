import { ActionIcon, Tooltip } from "../../utils/mantine";
import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ThemeStore } from "../../utils/versioned-store";
import { SpriteIcon } from "./SpriteIcon";

/** Dark mode and accessible colours: small forms, so they also work without JavaScript. */
export function ThemeControls({ theme }: { theme: ThemeStore }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const dark = theme.darkMode;
  const darkLabel = dark ? t("shell.lightMode") : t("shell.darkMode");
  return (
    <>
      <fetcher.Form method="post" action="/preferences/theme">
        <input type="hidden" name="darkMode" value={String(!dark)} />
        <Tooltip label={darkLabel}>
          <ActionIcon type="submit" variant="default" size="lg" aria-label={darkLabel} data-testid="toggle-dark-mode">
            <SpriteIcon name={dark ? "sun" : "moon"} size={18} />
          </ActionIcon>
        </Tooltip>
      </fetcher.Form>
      <fetcher.Form method="post" action="/preferences/theme">
        <input type="hidden" name="accessibleColors" value={String(!theme.accessibleColors)} />
        <Tooltip label={t("shell.accessibleColors")}>
          <ActionIcon
            type="submit"
            variant={theme.accessibleColors ? "filled" : "default"}
            size="lg"
            aria-label={t("shell.accessibleColors")}
            aria-pressed={theme.accessibleColors}
          >
            <SpriteIcon name="contrast" size={18} />
          </ActionIcon>
        </Tooltip>
      </fetcher.Form>
    </>
  );
}
