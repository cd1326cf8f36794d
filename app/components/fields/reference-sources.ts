import { findResource } from "../../common/resources";

// Where a reference picker finds its options: a registry entry's search. A reference to anything
// else has no search, so nothing can be picked for it.

export interface ReferenceSource {
  key: string;
  apiPath: string;
  titleField: string;
  /** Whether `/<key>/<id>` shows the entry (registry entries have a detail page). */
  hasDetailPage: boolean;
}

export function referenceSource(key: string | undefined): ReferenceSource | undefined {
  if (!key) return undefined;
  const def = findResource(key);
  return def ? { key, apiPath: def.pickerPath ?? def.apiPath, titleField: def.titleField, hasDetailPage: true } : undefined;
}

/** One choice of a picker. */
export interface PickerOption {
  value: string;
  label: string;
}

/** The options a picker starts with, and how many entries matched its query in all. */
export interface PickerData {
  options: PickerOption[];
  total: number;
  query: string;
  /** The list could not be read (no access, API down): the picker says so. */
  failed?: boolean;
}

/** Options listed without JavaScript; with it, search as you type lists fewer, more often. */
export const FALLBACK_OPTIONS = 100;
export const TYPEAHEAD_OPTIONS = 20;

/** How a picker names an entry: its title, and the firm's number for it when there is one. */
export function optionLabel(row: Record<string, unknown>, titleField: string): string {
  const title = String(row[titleField] ?? row.id ?? "");
  const number = row.unique_key;
  return typeof number === "string" && number !== "" && number !== title ? `${title} (${number})` : title;
}
