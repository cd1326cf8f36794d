// Short descriptions come from the Subject line, whose layout depends on the
// court and the system:
//
//   Activity in Case 1:20-cv-00572-WS-MU Autrey v. Harrigan et al Notice of Settlement
//   Activity in OKND case 4:18-cv-00499-JED Wilson v. Filtrex et al - Joint Status Report
//   Ch-7 1:24-bk-70535 Notice of Appearance; Lowry Farms, Inc.
//   23-00285-ELG CH11 Hearing Held (BK) - Avamere NPS Stables LLC
//   Ch-7 5:21-bk-00329-MJC -Maria Victoria Dir Motion to Reopen Case     (name cut short)
//   Docket Order - Continue Hearing (Auto) Ch 13 Jeffery Lovell 1:24-bk-01377
//   Multiple Cases "Close Adversary Case" - AP -
//   21-1975 New York State Telecommunicati v. James "Letter RECEIVED"   (appellate)
//   Vasquez Perdomo, et al. v. Noem, et al. 25-4312 - 063 - Corrected Order  (ACMS)
//
// The docket numbers and case names known from the body are located in the
// subject and cut out together with chapter markers and separators next to
// them; what remains is the description.
import { MAX_SUBJECT_CHARS } from "./limits";
import { asciiLower, collapse, trimChars } from "./text-utils";

export interface SubjectCase {
  /** Docket number without suffixes, e.g. "24-04888". */
  docketNumber: string;
  /** Case name as printed in the body. */
  rawName: string;
  /** Case name after cleaning ("et al" removed...). */
  cleanName: string;
}

const PREFIXES = /^(?:(?:re|fw|fwd|aw|wg|tr|nef|re-send|resend)\s*:\s*|\[[^\]]{0,60}\]\s*)+/i;

/** Subject without reply/forward prefixes such as "FW:", "Fwd:", "Re-send:", "[EXTERNAL]". */
export function stripSubjectPrefixes(subject: string): string {
  return collapse(subject.slice(0, MAX_SUBJECT_CHARS)).replace(PREFIXES, "").trim();
}

const DN_MARK = "\u0001";
const NAME_MARK = "\u0002";
// "Ch-7", "CH11", "Ch 13", "CH": chapter markers the courts add around the
// docket number. "Chapter 7" spelled out is often part of the event name
// ("Chapter 7 Voluntary Petition") and is only cut when a case name follows.
const CH_ABBR = String.raw`(?:CH|Ch)\.?[ -]?(?:\d{1,2})?(?![A-Za-z0-9])`;
const CHAPTER = String.raw`(?:Chapter\s+\d{1,2}|${CH_ABBR})(?![A-Za-z0-9])`;
const MIN_NAME_PREFIX = 12;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replace every occurrence of `needle` (case-insensitive) with `mark`. */
function markAll(haystack: string, needle: string, mark: string): { text: string; found: boolean } {
  if (!needle) return { text: haystack, found: false };
  const lowerNeedle = asciiLower(needle);
  let text = haystack;
  let found = false;
  for (let guard = 0; guard < 10; guard++) {
    const at = asciiLower(text).indexOf(lowerNeedle);
    if (at < 0) break;
    text = `${text.slice(0, at)}${mark}${text.slice(at + needle.length)}`;
    found = true;
  }
  return { text, found };
}

/** Longest prefix of `name` (at least MIN_NAME_PREFIX characters) present in `text`, replaced by `mark`. */
function markPrefix(text: string, name: string): string {
  const lowerText = asciiLower(text);
  const lowerName = asciiLower(name.slice(0, 300));
  for (let k = lowerName.length - 1; k >= MIN_NAME_PREFIX; k--) {
    if (lowerName[k - 1] === " ") continue;
    const at = lowerText.indexOf(lowerName.slice(0, k));
    if (at >= 0) return `${text.slice(0, at)}${NAME_MARK}${text.slice(at + k)}`;
  }
  return text;
}

/** Cases looked for in a subject; a subject names one or two. */
const MAX_SUBJECT_CASES = 50;

function markCases(subject: string, allCases: readonly SubjectCase[]): string {
  const cases = allCases.slice(0, MAX_SUBJECT_CASES);
  let s = subject;
  for (const c of cases) {
    if (!c.docketNumber) continue;
    const re = new RegExp(`(?<![\\w:/-])(?:[A-Za-z]{2,5}/)?${escapeRegExp(c.docketNumber)}(?:-[A-Za-z0-9]{1,10}){0,6}(?:/[A-Za-z]{2,5})?(?![\\w:/])`, "gi");
    s = s.replace(re, DN_MARK);
  }
  for (const c of cases) {
    const variants = [collapse(c.rawName), c.cleanName, collapse(c.rawName).replace(/,?\s+et\.?\s+al\.?$/i, "")];
    let found = false;
    for (const v of variants) {
      if (v.length < 2) continue;
      const r = markAll(s, v, NAME_MARK);
      s = r.text;
      if (r.found) {
        found = true;
        break;
      }
    }
    if (!found && collapse(c.rawName).length > MIN_NAME_PREFIX) s = markPrefix(s, collapse(c.rawName));
  }
  return s;
}

function pickRemainder(marked: string): string | null {
  let s = marked;
  for (let i = 0; i < 3; i++) {
    s = s
      .replace(new RegExp(`${DN_MARK}\\s*${CH_ABBR}`, "g"), DN_MARK)
      .replace(new RegExp(`${CHAPTER}\\s*(?=${NAME_MARK})`, "g"), "")
      .replace(new RegExp(`^\\s*${CHAPTER}\\s*(?=${DN_MARK})`), "")
      .replace(new RegExp(`(^|\\s)-\\s*(?:${CH_ABBR}|AP)\\s*-(?=\\s|$)`, "g"), "$1-");
  }
  s = s.replace(new RegExp(`\\b(?:re|in re)\\s*:\\s*(?=${NAME_MARK})`, "gi"), "");
  // The subject may say "et al" where the body's case name does not.
  s = s.replace(new RegExp(`${NAME_MARK}\\s*,?\\s*et\\.?\\s+al\\b\\.?`, "gi"), NAME_MARK);
  const segments = s
    .split(new RegExp(`[${DN_MARK}${NAME_MARK}]`))
    .map((seg) => trimChars(seg, " -;:,|"))
    .filter((seg) => /[A-Za-z0-9]/.test(seg));
  const last = segments[segments.length - 1];
  return last ? last.replace(/^"(.*)"$/, "$1") : null;
}

const LEADING_DOCKET_NUMBER = /^(?:[A-Za-z]{2,5}\/)?(?:\d{1,2}:)?\d{2,4}-(?:[A-Za-z]{1,4}-)?\d{1,7}(?:-[A-Za-z0-9]{1,10}){0,4}\s*/;

/** District and bankruptcy notices: the subject with case numbers, names and chapter markers removed. */
export function nefShortDescription(subject: string | null, cases: readonly SubjectCase[]): string | null {
  if (!subject) return null;
  const s = stripSubjectPrefixes(subject);
  const multiple = /^Multiple Cases\b[^"]{0,40}"([^"]{1,500})"/i.exec(s);
  if (multiple?.[1]) {
    // Either the label alone ("Close Adversary Case") or "<number> <name cut short> <label>".
    const quoted = collapse(multiple[1]);
    const numbered = LEADING_DOCKET_NUMBER.exec(quoted);
    if (!numbered) return quoted;
    return pickRemainder(markCases(`${DN_MARK}${quoted.slice(numbered[0].length)}`, cases)) ?? quoted;
  }
  const body = s.replace(/^Activity in (?:[A-Za-z]{2,8} )?case\s+/i, "");
  return pickRemainder(markCases(body, cases));
}

/** Classic appellate notices: the quoted part of the subject. */
export function ndaSubjectDescription(subject: string | null): string | null {
  if (!subject) return null;
  const m = /"([^"]{1,500})"/.exec(collapse(subject.slice(0, MAX_SUBJECT_CHARS)));
  return m?.[1] ? collapse(m[1]) : null;
}

/** ACMS subject: "<case name> <docket> - <NNN> - <description>" or "<case name> <docket> - <description> - <id>". */
export function acmsSubjectParts(subject: string | null, docketNumber: string): { documentNumber: string | null; description: string | null } {
  if (!subject) return { documentNumber: null, description: null };
  const s = stripSubjectPrefixes(subject);
  let rest = s;
  const at = docketNumber ? s.indexOf(docketNumber) : -1;
  if (at >= 0) rest = s.slice(at + docketNumber.length);
  else {
    const m = /\b\d{2}-\d{1,6}\b/.exec(s);
    if (m) rest = s.slice(m.index + m[0].length);
  }
  const numbered = /^\s*-\s*(\d{1,6})\s+-\s*(.*)$/.exec(rest);
  if (numbered) {
    return { documentNumber: String(Number(numbered[1])), description: collapse(numbered[2] ?? "") || null };
  }
  const plain = /^\s*-\s*(.*)$/.exec(rest);
  const description = collapse((plain?.[1] ?? rest).replace(/\s+-\s+\d{4,}\s*$/, ""));
  return { documentNumber: null, description: description || null };
}

/**
 * Subject of the original notice quoted in a forwarded message
 * ("-----Original Message-----", "---------- Forwarded message ---------",
 * Outlook's "From: … Sent: … Subject: …" block). The innermost one before the
 * notice itself is the court's subject.
 */
export function forwardedSubject(text: string, noticeStart: number): string | null {
  const region = text.slice(0, Math.max(0, noticeStart));
  let found: string | null = null;
  for (const m of region.matchAll(/(?:^|\n)[ \t]{0,10}Subject[ \t]{0,10}:[ \t]{0,10}([^\n]{1,1000})/gi)) {
    found = m[1] ?? found;
  }
  return found ? collapse(found) : null;
}
