import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TABLE_INTENTS } from "./intents";
import { PlainButton } from "./PlainFields";
import type { TableFrame } from "./types";

/**
 * Visible columns as checkboxes, for pages without JavaScript (the interactive table has its own
 * menu). Drawn only until the page is interactive, so its checkboxes and buttons are plain ones.
 */
export function ColumnsForm({ table }: { table: TableFrame }) {
  const { t } = useTranslation();
  return (
    <details data-testid="columns-form">
      <summary className="plain-summary">{t("table:columns.button")}</summary>
      <Form method="post">
        <fieldset className="plain-stack">
          <legend>{t("table:columns.legend")}</legend>
          {table.columns.map((c) => (
            <label key={c.field} className="plain-checkbox">
              <input type="checkbox" name="visible" value={c.field} defaultChecked={c.visible} disabled={c.isTitle} />
              {t(c.labelKey)}
            </label>
          ))}
          <div className="plain-buttons">
            <PlainButton type="submit" name="intent" value={TABLE_INTENTS.columns} size="xs">
              {t("table:columns.apply")}
            </PlainButton>
            <PlainButton type="submit" name="intent" value={TABLE_INTENTS.resetLayout} size="xs" variant="subtle">
              {t("table:columns.reset")}
            </PlainButton>
          </div>
        </fieldset>
      </Form>
    </details>
  );
}
