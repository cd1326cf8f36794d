// Small string helpers shared by the notice parsers. All of them run in linear
// time: no regular expression here can backtrack over unbounded input.

/** Bidirectional formatting characters (marks, embeddings, overrides, isolates): never part of a name. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u061c\ufeff\u00ad]/g;
const SPACES = /[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g;

/** Collapse all whitespace (including NBSP) to single spaces and trim. */
export function collapse(text: string): string {
  return text.replace(INVISIBLE, "").replace(SPACES, " ").trim();
}

/** Lower-case ASCII letters only, so that indexes stay aligned with the original string. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** "8/11/2021", "08/10/2022" or "8/11/21" to "2021-08-11"; null when not a real date. */
export function usDateToIso(text: string | null | undefined): string | null {
  if (!text) return null;
  const m = /(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d)/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  let year = Number(m[3]);
  if ((m[3] ?? "").length === 2) year += year < 70 ? 2000 : 1900;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface EmailHit {
  email: string;
  start: number;
  end: number;
}

const LOCAL_CHAR = /[A-Za-z0-9._%+'\-!#$&*/=?^`{|}~]/;
const DOMAIN_CHAR = /[A-Za-z0-9.\-_]/;

/**
 * E-mail addresses in a line of text. Scans outwards from each "@" instead of
 * running a regular expression, so long runs of address-like characters cannot
 * cause quadratic backtracking.
 */
export function findEmails(text: string): EmailHit[] {
  const out: EmailHit[] = [];
  let from = 0;
  let lastEnd = 0;
  for (;;) {
    const at = text.indexOf("@", from);
    if (at < 0) break;
    from = at + 1;
    if (at < lastEnd) continue;
    let start = at;
    while (start > lastEnd && LOCAL_CHAR.test(text[start - 1] ?? "")) start--;
    let end = at + 1;
    while (end < text.length && DOMAIN_CHAR.test(text[end] ?? "")) end++;
    while (start < at && /[.'-]/.test(text[start] ?? "")) start++;
    while (end > at + 1 && /[.\-_]/.test(text[end - 1] ?? "")) end--;
    if (start >= at || end <= at + 1) continue;
    const domain = text.slice(at + 1, end);
    if (!/\.[A-Za-z]{2,}$/.test(domain) || domain.startsWith(".")) continue;
    out.push({ email: text.slice(start, end), start, end });
    lastEnd = end;
    from = end;
  }
  return out;
}

/**
 * Remove the given characters from both ends. Written as a loop because a
 * regular expression such as /[\s,;]+$/ re-scans every run it cannot
 * finish, which is quadratic on long runs of those characters.
 */
export function trimChars(text: string, chars: string, ends: "both" | "start" | "end" = "both"): string {
  let start = 0;
  let end = text.length;
  if (ends !== "end") while (start < end && chars.includes(text[start] ?? "")) start++;
  if (ends !== "start") while (end > start && chars.includes(text[end - 1] ?? "")) end--;
  return text.slice(start, end);
}

/** Text of a notice with HTML-looking tags removed (plain-text notices sometimes carry <b>, <i>). */
export function stripSimpleTags(text: string): string {
  return text.replace(/<\/?(?:b|i|u|em|strong|font|span|br|p|a|div|small|big|tt)\b[^<>]{0,200}>/gi, "");
}
