import { Switch } from "../../utils/mantine";
import { Row } from "../Row";
import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { STRIPED_FETCHER_KEY, TABLE_INTENTS } from "./intents";
import { PlainButton } from "./PlainFields";

/** The striping the page shows: a pending switch wins over the saved preference. */
export function useStriped(saved: boolean): boolean {
  const fetcher = useFetcher({ key: STRIPED_FETCHER_KEY });
  const pending = fetcher.formData?.get("intent") === TABLE_INTENTS.striped ? fetcher.formData.get("striped") === "on" : null;
  return pending ?? saved;
}

/**
 * The firm's "Striped rows" preference: saved as soon as it is toggled; without JavaScript the
 * form has a Save button instead.
 */
export function StripedSwitch({ saved }: { saved: boolean }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher({ key: STRIPED_FETCHER_KEY });
  const striped = useStriped(saved);
  return (
    <fetcher.Form method="post" data-testid="striped-form">
      <input type="hidden" name="intent" value={TABLE_INTENTS.striped} />
      {hydrated ? null : <input type="hidden" name="back" value="1" />}
      <Row gap="xs" wrap="nowrap">
        <Switch
          name="striped"
          label={t("table:striped")}
          {...(hydrated
            ? {
                checked: striped,
                onChange: (event) => fetcher.submit({ intent: TABLE_INTENTS.striped, striped: event.currentTarget.checked ? "on" : "off" }, { method: "post" }),
              }
            : { defaultChecked: saved })}
        />
        {hydrated ? null : (
          // Drawn only until the page is interactive: a plain button, as the other no-JavaScript forms'.
          <PlainButton type="submit" size="xs" variant="default">
            {t("table:save")}
          </PlainButton>
        )}
      </Row>
    </fetcher.Form>
  );
}
