import type { FieldDef, ResourceDef } from "../resources/types";
import { fieldLabelKey } from "../resources/types";
import { importFields } from "./format";

// How files name their columns, shared by the export that writes them, the import that reads them
// and the page that explains them. An export names each column as the table does (the catalogue's
// label); a reference field gets the referenced record's title under its label and the id an
// import reads under "<label> (ID)". An import takes those names or the API field names.

export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Labels of the columns every record has, which no entity declares. */
const RECORD_LABEL_KEYS: Record<string, string> = { id: "transfer:columns.id", updated_at: "transfer:columns.updatedAt" };

/** The name people see for a field: its catalogue label, or the field name where it has none. */
export function columnLabel(t: Translate, def: ResourceDef, field: string): string {
  for (const key of [fieldLabelKey(def.key, field), RECORD_LABEL_KEYS[field]]) {
    if (!key) continue;
    const label = t(key);
    // A key the catalogue lacks comes back as itself (less its namespace).
    if (label !== "" && !key.endsWith(label)) return label;
  }
  return field;
}

export const isReferenceField = (field: FieldDef | undefined): boolean => field?.kind === "reference" || field?.kind === "references";

/** The column holding a reference field's ids, beside the one holding the referenced titles. */
export function referenceIdLabel(t: Translate, def: ResourceDef, field: string): string {
  return t("transfer:columns.referenceIds", { label: columnLabel(t, def, field) });
}

/** What a header cell stands for in an import file. */
export type HeaderTarget =
  | { kind: "id" }
  /** A writable field's values. */
  | { kind: "field"; field: FieldDef }
  /** The titles beside a reference field's ids: read only when the file has no id column for it. */
  | { kind: "title"; field: FieldDef }
  /** A column the server keeps (created dates, counts): accepted and left alone. */
  | { kind: "ignored" };

const normal = (name: string) => name.trim().toLowerCase();

/** The names an import header may use: API field names exactly, the export's labels in any case. */
export interface HeaderNames {
  keys: Map<string, HeaderTarget>;
  labels: Map<string, HeaderTarget>;
}

/** Every name an import header may use for the entity; `known` lists the other columns an export may write. */
export function importHeaderNames(t: Translate, def: ResourceDef, known: readonly string[]): HeaderNames {
  const keys = new Map<string, HeaderTarget>([["id", { kind: "id" }]]);
  const labels = new Map<string, HeaderTarget>([[normal(columnLabel(t, def, "id")), { kind: "id" }]]);
  const label = (name: string, target: HeaderTarget) => {
    if (!labels.has(normal(name))) labels.set(normal(name), target);
  };
  const writable = importFields(def);
  for (const field of writable) {
    keys.set(field.name, { kind: "field", field });
    if (isReferenceField(field)) label(referenceIdLabel(t, def, field.name), { kind: "field", field });
  }
  for (const field of writable) label(columnLabel(t, def, field.name), isReferenceField(field) ? { kind: "title", field } : { kind: "field", field });
  const others = [...def.fields.map((f) => f.name), ...known].filter((name) => !writable.some((f) => f.name === name));
  for (const name of others) {
    if (!keys.has(name)) keys.set(name, { kind: "ignored" });
    label(columnLabel(t, def, name), { kind: "ignored" });
    if (isReferenceField(def.fields.find((f) => f.name === name))) label(referenceIdLabel(t, def, name), { kind: "ignored" });
  }
  return { keys, labels };
}

// A field name is matched as it is written ("timekeepers"), so that a label spelt alike
// ("Timekeepers", the titles beside the ids) keeps its own meaning.
export const headerTarget = (names: HeaderNames, name: string): HeaderTarget | undefined => names.keys.get(name.trim()) ?? names.labels.get(normal(name));
