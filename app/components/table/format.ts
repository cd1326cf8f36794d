import type { TFunction } from "i18next";
import { formatCents } from "../../common/billing";
import { formatMoment } from "../../utils/dates";
import type { TableColumn } from "./columns";
import type { ReferenceOption } from "./types";

/** Referenced rows' titles by column and id, resolved by the loader. */
export type ReferenceTitles = Record<string, Record<string, string>>;

/** A select field's option label from the catalogue; the stored value when it has none. */
export function optionLabel(t: TFunction, resourceKey: string, field: string, value: string): string {
  return t(`resources:${resourceKey}.options.${field}.${value}`, { defaultValue: value });
}

/**
 * `t` translating each key once: a page of rows repeats a few labels (statuses, yes and no) in
 * every row, and each catalogue lookup costs tens of microseconds of the server's render. Only for
 * cellText, whose options for a key never differ.
 */
export function keyedOnce(t: TFunction): TFunction {
  const labels = new Map<string, string>();
  const once = (key: string, options?: object) => {
    let label = labels.get(key);
    if (label === undefined) {
      label = String(t(key, options as never));
      labels.set(key, label);
    }
    return label;
  };
  return once as unknown as TFunction;
}

/** The text of one cell: labels from the catalogue, references as titles, times in the firm's time zone. */
export function cellText(t: TFunction, resourceKey: string, column: TableColumn, value: unknown, titles: ReferenceTitles, timeZone: string): string {
  if (value === null || value === undefined || value === "") return "";
  if (Array.isArray(value)) return value.map((v) => cellText(t, resourceKey, column, v, titles, timeZone)).join(", ");
  if (typeof value === "boolean") return t(value ? "table:yes" : "table:no");
  if (column.kind === "reference" || column.kind === "references") return titles[column.field]?.[String(value)] ?? String(value);
  if (column.kind === "select") return optionLabel(t, resourceKey, column.field, String(value));
  if (column.kind === "date" && typeof value === "number") return formatMoment(value, timeZone);
  if (column.money && typeof value === "number") return formatCents(value);
  return String(value);
}

/** What a column's filter offers to choose from; none means a typed value (text, or an id). */
export function filterChoices(
  t: TFunction,
  resourceKey: string,
  column: TableColumn,
  referenceOptions: Record<string, ReferenceOption[]>,
): ReferenceOption[] | undefined {
  if (column.filter === "select") return (column.options ?? []).map((o) => ({ value: o, label: optionLabel(t, resourceKey, column.field, o) }));
  if (column.filter === "reference") return referenceOptions[column.field];
  return undefined;
}
