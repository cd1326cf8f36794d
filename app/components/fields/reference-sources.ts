import { findResource } from "../../common/resources";

// Where a reference picker finds its options: a registry entry's search, or one of the few
// lists that have a search but no registry entry. A reference to anything else (storage
// policies, preference groups) has no API yet, so nothing can be picked for it.

export interface ReferenceSource {
  key: string;
  apiPath: string;
  titleField: string;
  /** Whether `/<key>/<id>` shows the entry (registry entries have a detail page). */
  hasDetailPage: boolean;
}

const EXTRA_SOURCES: Record<string, Omit<ReferenceSource, "key">> = {
  // Roles are edited on their own permission page, not through the registry.
  "security-roles": { apiPath: "/api/v1/security-role", titleField: "name", hasDetailPage: false },
};

export function referenceSource(key: string | undefined): ReferenceSource | undefined {
  if (!key) return undefined;
  const def = findResource(key);
  if (def) return { key, apiPath: def.apiPath, titleField: def.titleField, hasDetailPage: true };
  const extra = EXTRA_SOURCES[key];
  return extra ? { key, ...extra } : undefined;
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
