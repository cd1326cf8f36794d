// ProLaw keeps documents on the firm's Windows file share, so its file and folder names follow
// Windows' rules: no \ / : * ? " < > | or control characters, no trailing dot or space, none of
// the reserved device names; file names up to 255 characters, folder names up to 100
// (tests/fixtures/openapi/prolaw/prolaw-rest.yaml). A taken name, compared without case, gets
// " (2)", " (3)", … before its extension: nothing is ever overwritten.

export const MAX_FILE_NAME = 255;
export const MAX_FOLDER_NAME = 100;
// eslint-disable-next-line no-control-regex -- control characters are what it replaces
const FORBIDDEN = /[\\/:*?"<>|\u0000-\u001f]/g;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** A name Windows and ProLaw take: forbidden characters become "_", reserved names get "_" appended, at most `max` characters. */
export function proLawSafeName(name: string, max: number): string {
  let safe = name.replace(FORBIDDEN, "_").replace(/\s+/g, " ").trim();
  if (RESERVED.test(safe)) safe = `${safe}_`;
  safe = safe.slice(0, max).replace(/[. ]+$/, "");
  return safe || "_";
}

/** "name.ext", or "name (n).ext" for the first n not taken; the stem shortened to keep it within MAX_FILE_NAME. */
export function firstFreeName(stem: string, extension: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((name) => name.toLowerCase()));
  const suffix = extension ? `.${proLawSafeName(extension, 20)}` : "";
  for (let n = 1; n < 10_000; n++) {
    const counter = n === 1 ? "" : ` (${n})`;
    const base = proLawSafeName(stem, MAX_FILE_NAME - suffix.length - counter.length);
    const name = `${base}${counter}${suffix}`;
    if (!used.has(name.toLowerCase())) return name;
  }
  throw new Error(`every name for ${stem}${suffix} is taken`);
}
