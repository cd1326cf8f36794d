// iManage Work's rules for the names ECFX gives documents and folders. A document's profile keeps
// the name and the extension apart; the name may not be longer than 254 characters nor hold
// \ / : * ? " < > | (iManage refuses them, and desktop clients build file names from it).

/** Longest name iManage keeps in a document's (or folder's) "name" profile field. */
export const MAX_NAME_LENGTH = 254;
/** What iManage refuses in a name; each becomes "_". */
const FORBIDDEN = /[\\/:*?"<>|]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** A name with nothing left of it. */
const FALLBACK_NAME = "Document";

/** A name iManage takes: no forbidden or control characters, no trailing dots or spaces, not too long. */
export function imanageName(raw: string, maxLength = MAX_NAME_LENGTH): string {
  const cleaned = raw.replace(CONTROL, " ").replace(FORBIDDEN, "_").replace(/\s+/g, " ").trim();
  const cut = Array.from(cleaned).slice(0, maxLength).join("");
  const trimmed = cut.replace(/[. ]+$/, "");
  return trimmed || FALLBACK_NAME;
}

/** An extension as iManage keeps it: without the dot, letters and digits only; "" when there is none. */
export function imanageExtension(raw: string): string | null {
  const bare = raw.trim().replace(/^\./, "");
  if (bare === "") return "";
  return /^[A-Za-z0-9]{1,16}$/.test(bare) ? bare.toLowerCase() : null;
}

/** How a name with its extension reads in a location and compares with a folder's documents (iManage ignores case). */
export function displayName(name: string, extension: string): string {
  return extension ? `${name}.${extension}` : name;
}

/** The copy'th candidate for a name: "Order", "Order (2)", "Order (3)", …, cut so the suffix always fits. */
export function candidateName(name: string, copy: number): string {
  if (copy <= 1) return name;
  const suffix = ` (${copy})`;
  return `${imanageName(name, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** Beyond this many copies of one name something is wrong (a loop storing the same notice). */
export const MAX_COPIES = 10_000;

/** The first candidate no document in the folder has, comparing without case; null past MAX_COPIES. */
export function firstFreeName(name: string, extension: string, taken: Iterable<string>): string | null {
  const used = new Set(Array.from(taken, (entry) => entry.toLowerCase()));
  for (let copy = 1; copy <= MAX_COPIES; copy++) {
    const candidate = candidateName(name, copy);
    if (!used.has(displayName(candidate, extension).toLowerCase())) return candidate;
  }
  return null;
}
