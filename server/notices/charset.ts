// Text whose bytes do not match its declared (or assumed) charset. Mail clients
// show such 8-bit text as windows-1252, the superset of ISO-8859-1 that older
// court and office systems write without saying so; so do we, instead of
// turning every "§" and accented letter into U+FFFD.

const UTF8 = new TextDecoder("utf-8", { fatal: true });

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

const EMPTY = Buffer.alloc(0);
/** Bytes 0x80-0xFF as the UTF-8 bytes of their windows-1252 characters. */
const WINDOWS_1252_HIGH: readonly Buffer[] = Array.from({ length: 128 }, (_, i) => Buffer.from(fixC1Controls(String.fromCharCode(0x80 + i)), "utf8"));

const within = (b: number | undefined, low: number, high: number) => b !== undefined && b >= low && b <= high;

/** Length of the valid UTF-8 sequence starting at `i` (RFC 3629: no overlong forms, no surrogates), 0 if none. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead >= 0xc2 && lead <= 0xdf) return within(bytes[i + 1], 0x80, 0xbf) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return within(bytes[i + 1], low, high) && within(bytes[i + 2], 0x80, 0xbf) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return within(bytes[i + 1], low, high) && within(bytes[i + 2], 0x80, 0xbf) && within(bytes[i + 3], 0x80, 0xbf) ? 4 : 0;
  }
  return 0;
}

/**
 * Bytes read as UTF-8 where they are valid UTF-8 and as windows-1252 where they are not, sequence
 * by sequence: text pasted from two systems into one message ("Peña" in UTF-8 beside a "§" an
 * older system wrote in windows-1252) reads as both wrote it.
 */
export function decodeUtf8Mixed(bytes: Uint8Array): string {
  // The bytes that are not UTF-8 are rewritten as the UTF-8 of their windows-1252 character, and
  // the whole decoded once (at most three bytes for each one rewritten).
  const out = Buffer.allocUnsafe(bytes.length * 3);
  let n = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const length = b < 0x80 ? 1 : utf8SequenceAt(bytes, i);
    if (length) {
      for (const end = i + length; i < end; i++) out[n++] = bytes[i] ?? 0;
      continue;
    }
    const encoded = WINDOWS_1252_HIGH[b - 0x80] ?? EMPTY;
    for (let k = 0; k < encoded.length; k++) out[n++] = encoded[k] ?? 0;
    i++;
  }
  return out.toString("utf8", 0, n);
}

/** Bytes as UTF-8 when they are valid UTF-8, else each sequence as UTF-8 or windows-1252 (decodeUtf8Mixed). */
export function decodeUtf8OrLegacy(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return decodeUtf8Mixed(bytes);
  }
}

/** True when the bytes hold anything outside 7-bit ASCII. */
export function hasEightBit(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) > 0x7f) return true;
  return false;
}
