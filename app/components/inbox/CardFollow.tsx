import { Anchor, Text } from "../../utils/mantine";
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";

/** The states the pipeline still moves an item out of by itself; every other one stays until a person acts. */
const IN_PROGRESS: ReadonlySet<string> = new Set(["New", "Started", "Retry", "Post Processing"]);

/** How often a card in progress is read again. */
export const CARD_REFRESH_SECONDS = 3;

/**
 * A card follows its item while the pipeline works on it: with JavaScript the page's data is read
 * again every few seconds while the tab is visible, without it the page reloads itself (and says
 * so, with a link to do it at once); both stop once the item reaches a state that stays.
 */
export function CardFollow({ status }: { status: string }) {
  const { t } = useTranslation("inbox");
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const working = IN_PROGRESS.has(status);

  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && latest.current.state === "idle") latest.current.revalidate();
    }, CARD_REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [working]);

  if (!working) return null;
  return (
    <>
      <noscript>
        <meta httpEquiv="refresh" content={String(CARD_REFRESH_SECONDS)} />
      </noscript>
      <Text size="sm" c="dimmed" data-testid="card-following">
        {t("card.following")}
        {hydrated ? null : (
          <>
            {" "}
            <Anchor href="">{t("card.refresh")}</Anchor>
          </>
        )}
      </Text>
    </>
  );
}
