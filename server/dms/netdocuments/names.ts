import { stripControlCharacters } from "../../lib/control-characters";

// NetDocuments' rules for document and folder names: at most 200 characters, none of
// \ / : * ? " < > |, and no leading spaces or trailing dots and spaces (the desktop tools that
// check documents out to Windows drop them, so a name ending in one would not round-trip).
// The extension is a separate field of a NetDocuments document and does not count.

export const MAX_NAME_LENGTH = 200;
const FORBIDDEN = /[\\/:*?"<>|]/g;
const FALLBACK_NAME = "Document";

/** A name NetDocuments accepts for `name`: forbidden characters replaced, trimmed, shortened to fit. */
export function netDocumentsName(name: string, maxLength = MAX_NAME_LENGTH): string {
  const cleaned = stripControlCharacters(name.replace(/[\t\r\n]+/g, " "))
    .replace(FORBIDDEN, "_")
    .replace(/\s+/g, " ")
    .trimStart();
  const fitted = cleaned.slice(0, maxLength).replace(/[. ]+$/, "");
  return fitted === "" ? FALLBACK_NAME.slice(0, maxLength) : fitted;
}

/** The n-th candidate for a document name: the name itself, then "name (2)", "name (3)", … each within the limit. */
export function numberedName(name: string, copy: number): string {
  if (copy <= 1) return netDocumentsName(name);
  const suffix = ` (${copy})`;
  return `${netDocumentsName(name, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** A document's full name as a folder listing shows it: "name.pdf", or "name" without an extension. */
export function fullName(name: string, extension: string): string {
  return extension === "" ? name : `${name}.${extension}`;
}

/** Two names are the same document name for NetDocuments when they differ only in case. */
export function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;
}
