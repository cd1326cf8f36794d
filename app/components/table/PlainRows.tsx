import { Checkbox } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { useFirmTimeZone } from "../../utils/dates";
import { rowHref } from "./CellContent";
import { cellText, keyedOnce } from "./format";
import type { ArrangedColumn } from "./layout";
import type { TableData, TableSelection } from "./types";

/**
 * The rows of the server's and the no-JavaScript table as plain elements, styled by
 * app/styles/app.css as Mantine draws its table (decision 059): a Mantine component per cell made
 * the rows most of a list page's render. The title links are plain links too, styled by the rows'
 * class rather than one of their own each: once the page is interactive, the interactive table
 * replaces these rows.
 */
export function PlainRows({ table, columns, selection }: { table: TableData; columns: ArrangedColumn[]; selection?: TableSelection }) {
  const { t } = useTranslation();
  const timeZone = useFirmTimeZone();
  const { resourceKey, titles } = table;
  const label = keyedOnce(t);
  if (table.rows.length === 0) {
    return (
      <tbody className="plain-rows">
        <tr>
          <td colSpan={columns.length + (selection ? 1 : 0)} className="plain-rows-empty">
            {t("table:empty")}
          </td>
        </tr>
      </tbody>
    );
  }
  return (
    <tbody className="plain-rows">
      {table.rows.map((row, i) => (
        <tr key={String(row.id ?? i)}>
          {selection ? (
            <td>
              <Checkbox size="xs" name={selection.rowName} value={String(row.id)} aria-label={selection.rowLabel(row)} />
            </td>
          ) : null}
          {columns.map((c) => {
            const text = cellText(label, resourceKey, c, row[c.field], titles, timeZone);
            const linked = c.isTitle && row.id !== undefined && row.id !== null;
            return <td key={c.field}>{linked ? <a href={rowHref(resourceKey, row.id)}>{text || String(row.id)}</a> : text}</td>;
          })}
        </tr>
      ))}
    </tbody>
  );
}
