// A firm's dictionary: its own words for entries of the catalogue (locales/en). What the console
// and the server both need: the entry's address, the placeholder rule and the merge of a firm's
// words over the defaults.

/** The catalogue: namespaces of nested objects whose leaves are texts. */
export type Catalogue = Record<string, Record<string, unknown>>;

/** A firm's overrides by namespace, then by dotted key ("pages.dictionary"). */
export type FirmOverrides = Record<string, Record<string, string>>;

/** What the console asks for on each page: the firm's words and the version they belong to. */
export interface FirmWords {
  version: number;
  overrides: FirmOverrides;
}

/** One row of the dictionary as the API lists it. */
export interface DictionaryRow {
  namespace: string;
  key: string;
  defaultText: string;
  text: string;
  overridden: boolean;
  updatedAt: number | null;
  updatedBy: string | null;
}

/** An override longer than this is refused: a label or a sentence, not a document. */
export const DICTIONARY_MAX_LENGTH = 2000;

/** The export's and the import's column names (the importer also takes the field names). */
export const DICTIONARY_COLUMNS = { namespace: "Namespace", key: "Key", defaultText: "Default text", text: "Text" } as const;

/** Each leaf of the catalogue: namespace, dotted key and default text, in file order. */
export function catalogueEntries(catalogue: Catalogue): { namespace: string; key: string; text: string }[] {
  const out: { namespace: string; key: string; text: string }[] = [];
  const walk = (namespace: string, node: Record<string, unknown>, prefix: string) => {
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (typeof value === "string") out.push({ namespace, key, text: value });
      else if (value && typeof value === "object") walk(namespace, value as Record<string, unknown>, key);
    }
  };
  for (const [namespace, node] of Object.entries(catalogue)) walk(namespace, node, "");
  return out;
}

/** The catalogue with a firm's overrides over it; namespaces and branches it does not touch are shared, not copied. */
export function withOverrides(catalogue: Catalogue, overrides: FirmOverrides): Catalogue {
  const out: Catalogue = { ...catalogue };
  for (const [namespace, entries] of Object.entries(overrides)) {
    if (!catalogue[namespace]) continue;
    const root: Record<string, unknown> = { ...catalogue[namespace] };
    for (const [key, value] of Object.entries(entries)) {
      const path = key.split(".");
      let node = root;
      for (const part of path.slice(0, -1)) {
        const next = node[part];
        if (!next || typeof next !== "object") break;
        node = node[part] = { ...(next as Record<string, unknown>) };
      }
      const leaf = path[path.length - 1] ?? "";
      if (typeof node[leaf] === "string") node[leaf] = value;
    }
    out[namespace] = root;
  }
  return out;
}

// i18next interpolation ({{name}}, {{count, number}}), nesting ($t(key)) and the single-brace
// placeholders of the table's own library ({column}).
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}|\$t\(([^()]*)\)|\{\s*([A-Za-z_][\w.]*)\s*\}/g;

/** The placeholders of a text, written as the catalogue writes them ("{{count}}", "{column}", "$t(key)"). */
export function placeholdersOf(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match[1] !== undefined) found.add(`{{${match[1].replace(/\s*,\s*/g, ", ")}}}`);
    else if (match[2] !== undefined) found.add(`$t(${match[2].trim()})`);
    else found.add(`{${match[3]}}`);
  }
  return [...found];
}

/** Why a value cannot replace a default, as catalogue keys and their values; empty when it can. */
export function dictionaryValueProblems(defaultText: string, value: string): { key: string; values?: Record<string, string | number> }[] {
  if (value.trim() === "") return [{ key: "errors:dictionaryEmpty" }];
  if (value.length > DICTIONARY_MAX_LENGTH) return [{ key: "errors:dictionaryTooLong", values: { max: DICTIONARY_MAX_LENGTH } }];
  const expected = placeholdersOf(defaultText);
  const given = placeholdersOf(value);
  const problems: { key: string; values?: Record<string, string | number> }[] = [];
  const unknown = given.filter((p) => !expected.includes(p));
  const missing = expected.filter((p) => !given.includes(p));
  if (unknown.length)
    problems.push({ key: "errors:dictionaryUnknownPlaceholder", values: { placeholders: unknown.join(", "), expected: expected.join(", ") || "—" } });
  if (missing.length) problems.push({ key: "errors:dictionaryMissingPlaceholder", values: { placeholders: missing.join(", ") } });
  return problems;
}
