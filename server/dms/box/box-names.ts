// Box's rules for file and folder names: at most 255 characters, no "/" or "\", no leading or
// trailing spaces, and neither "." nor "..". Box compares names without regard to case, so a
// name is free only when no item of the folder has it in any case.

export const BOX_MAX_NAME_LENGTH = 255;

/** What stands in for a name that has nothing left once Box's rules are applied. */
const EMPTY_NAME = "document";

/** Characters Box refuses, and control characters no one can see in a listing. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/g;

/** A folder name (or a file name's stem) Box accepts, as close to `name` as the rules allow. */
export function boxSafeName(name: string, maxLength = BOX_MAX_NAME_LENGTH): string {
  let safe = name.replace(FORBIDDEN, "_").trim();
  if (safe.length > maxLength) safe = safe.slice(0, maxLength).trimEnd();
  if (safe === "" || safe === "." || safe === "..") return EMPTY_NAME;
  return safe;
}

/** The file name `stem (copy).ext` within Box's length limit; the stem is shortened, never the extension or the copy number. */
export function boxFileName(stem: string, extension: string, copy = 1): string {
  const suffix = `${copy > 1 ? ` (${copy})` : ""}${extension ? `.${boxSafeName(extension)}` : ""}`;
  return `${boxSafeName(stem, BOX_MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** The key Box compares names by. */
export const nameKey = (name: string): string => name.toLowerCase();

/** The first of `stem.ext`, `stem (2).ext`, … that no item in `taken` has. */
export function firstFreeName(stem: string, extension: string, taken: Iterable<string>, maxCopies = 10_000): string {
  const used = new Set([...taken].map(nameKey));
  for (let copy = 1; copy <= maxCopies; copy++) {
    const candidate = boxFileName(stem, extension, copy);
    if (!used.has(nameKey(candidate))) return candidate;
  }
  throw new RangeError(`More than ${maxCopies} documents named ${boxFileName(stem, extension)}`);
}
