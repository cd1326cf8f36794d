import type { TFunction } from "i18next";
import type { TableColumn } from "./columns";
import type { ReferenceOption } from "./types";

/** Referenced rows' titles by column and id, resolved by the loader. */
export type ReferenceTitles = Record<string, Record<string, string>>;

const pad = (n: number) => String(n).padStart(2, "0");

/** A stored time in milliseconds as `YYYY-MM-DD HH:mm UTC`: the same on the server and in every browser. */
export function formatMillis(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** A select field's option label from the catalogue; the stored value when it has none. */
export function optionLabel(t: TFunction, resourceKey: string, field: string, value: string): string {
  return t(`resources:${resourceKey}.options.${field}.${value}`, { defaultValue: value });
}

/** The text of one cell: labels from the catalogue, references as titles, times formatted. */
export function cellText(t: TFunction, resourceKey: string, column: TableColumn, value: unknown, titles: ReferenceTitles): string {
  if (value === null || value === undefined || value === "") return "";
  if (Array.isArray(value)) return value.map((v) => cellText(t, resourceKey, column, v, titles)).join(", ");
  if (typeof value === "boolean") return t(value ? "table:yes" : "table:no");
  if (column.kind === "reference" || column.kind === "references") return titles[column.field]?.[String(value)] ?? String(value);
  if (column.kind === "select") return optionLabel(t, resourceKey, column.field, String(value));
  if (column.kind === "date" && typeof value === "number") return formatMillis(value);
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
