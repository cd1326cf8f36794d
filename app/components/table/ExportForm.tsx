import { Form } from "@remix-run/react";
import { SpriteIcon } from "../shell/SpriteIcon";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { defaultExportName } from "../../common/export-name";
import { useFirmTimeZone } from "../../utils/dates";
import { tableSearchParams } from "../../utils/table-url";
import { useHydrated } from "../../utils/use-hydrated";
import { HiddenInputs } from "./HiddenInputs";
import { PlainButton, PlainField, PlainInput } from "./PlainFields";
import type { TableFrame } from "./types";

/** The export resource route of a list page. */
export const exportPath = (resourceKey: string) => `/${resourceKey}/export`;

/**
 * Asks for a file name (the entity and today's date unless changed) and downloads every row matching the table's current filters as CSV. A
 * document request, so the browser saves the file and the page stays where it is. Plain fields
 * (PlainFields.tsx): the form sits folded on every list page and needs none of Mantine's input behaviour.
 */
export function ExportForm({ table }: { table: TableFrame }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const timeZone = useFirmTimeZone();
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const filename = new FormData(event.currentTarget).get("filename");
    if (typeof filename !== "string" || filename.trim() === "") {
      event.preventDefault();
      setError(t("table:filenameRequired"));
    } else {
      setError(undefined);
    }
  };
  return (
    <details data-testid="export-form">
      <summary className="plain-summary">{t("table:export.button")}</summary>
      <Form
        method="get"
        action={exportPath(table.resourceKey)}
        reloadDocument
        onSubmit={onSubmit}
        noValidate={hydrated}
        data-testid="export-download"
        data-hydrated={hydrated || undefined}
        className="plain-export"
      >
        <HiddenInputs params={tableSearchParams(table.state, table.spec)} omit={(key) => key === "page" || key === "size"} />
        <PlainField label={t("table:export.filename")} required error={error}>
          {(id, errorId) => (
            <span className="plain-suffixed">
              <PlainInput
                id={id}
                name="filename"
                defaultValue={defaultExportName(table.resourceKey, Date.now(), timeZone)}
                required
                maxLength={100}
                invalid={Boolean(error)}
                aria-describedby={errorId}
              />
              <span aria-hidden>.csv</span>
            </span>
          )}
        </PlainField>
        <p className="plain-hint">{t("table:export.filenameHint")}</p>
        <PlainButton type="submit" size="xs">
          <SpriteIcon name="download" size={14} />
          {t("table:export.submit")}
        </PlainButton>
      </Form>
    </details>
  );
}
