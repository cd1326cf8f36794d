import type { FieldDef, ResourceDef } from "../resources/types";

// The import file format, shared by the API that reads it and the page that documents it.
// A header row of API field names (the names the export writes), then one record per line.

/** Separates the values of a list cell (assigned_timekeepers, ecfx_jurisdictions, e-mails). */
export const LIST_SEPARATOR = ";";
export const TRUE_WORDS = ["true", "yes"] as const;
export const FALSE_WORDS = ["false", "no"] as const;
const MB = 1024 * 1024;
/** The most any firm may allow (a firm's max_import_size is 20 MB unless set); the console takes no larger upload. */
export const MAX_IMPORT_BYTES = 100 * MB;

/** A file size as the import speaks of it: "20 MB", "1.5 MB", "512 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
/** Lines of a job's report per page. */
export const LINES_PER_PAGE = 50;

/** The columns an import may write: the entity's declared fields that the server does not compute. */
export function importFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.computed);
}

export function isImportable(def: ResourceDef): boolean {
  // An entity with its own editor (a role's permission matrix) is written only there.
  return !def.ownEditor && importFields(def).length > 0;
}

/** The exact header row for an entity. */
export function importHeader(def: ResourceDef): string {
  return importFields(def)
    .map((f) => f.name)
    .join(",");
}
