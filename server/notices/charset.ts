// Text whose bytes do not match its declared (or assumed) charset. Mail clients
// show such 8-bit text as windows-1252, the superset of ISO-8859-1 that older
// court and office systems write without saying so; so do we, instead of
// turning every "§" and accented letter into U+FFFD.

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LATIN1 = new TextDecoder("latin1");

// windows-1252 bytes 0x80-0x9F. Node 20's TextDecoder reads every latin1 label
// as ISO-8859-1 and leaves them as C1 controls, which no real text contains;
// undefined positions stay as they are.
const CP1252_C1 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
const C1 = /[\u0080-\u009f]/g;

/** C1 control characters read back as the windows-1252 characters they stand for. */
export function fixC1Controls(text: string): string {
  C1.lastIndex = 0;
  return C1.test(text) ? text.replace(C1, (c) => CP1252_C1[c.charCodeAt(0) - 0x80] ?? c) : text;
}

/** Bytes as UTF-8 when they are valid UTF-8, else as windows-1252. */
export function decodeUtf8OrLegacy(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return fixC1Controls(LATIN1.decode(bytes));
  }
}

/** True when the bytes hold anything outside 7-bit ASCII. */
export function hasEightBit(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) > 0x7f) return true;
  return false;
}
