import { trimChars } from "./text-utils";

// Docket numbers as CM/ECF prints them, split into their parts.
//
//   1:20-cv-00572-WS-MU   office 1, type cv, assigned judge WS, referred judge MU
//   1:17-cr-00201-ABJ-2   ... defendant number 2 (criminal cases)
//   6:22-bk-13768-MH      bankruptcy court with office and type
//   22-00105-5-JNC        bankruptcy short form: office 5 after the number, judge JNC
//   24-04888-CL7          judge CL followed by the chapter (7)
//   25-03768-JMC-13       judge JMC, chapter 13
//   1-23-42603-nhl        E.D.N.Y. bankruptcy form, kept whole as the court prints it
//   22-11299              appellate
//   MDL No. 2741          JPML
//   CAN/3:20-cv-01234     member case of a multidistrict litigation, with the
//   3:20-cv-01234/CAN     district's code before or after it (or "(CAN)" after)

export interface DocketNumberParts {
  /** Docket number without judge / defendant / chapter suffixes. */
  docket_number: string;
  federal_dn_office_code: string | null;
  federal_dn_case_type: string | null;
  federal_dn_judge_initials_assigned: string | null;
  federal_dn_judge_initials_referred: string | null;
  federal_defendant_number: string | null;
  /** As printed. */
  full: string;
  /** District code printed with the number ("CAN" of "CAN/3:20-cv-01234"), upper case. */
  court_code: string | null;
}

const FULL_FORM = /^(\d{1,2}):(\d{2,4})-([A-Za-z]{1,4})-(\d{1,7})((?:-[A-Za-z0-9]{1,10}){0,6})$/;
const NY_BANKRUPTCY_FORM = /^(\d-\d{2}-\d{3,7})((?:-[A-Za-z0-9]{1,10}){0,6})$/;
const SHORT_FORM = /^(\d{2,4}-\d{1,7})((?:-[A-Za-z0-9]{1,10}){0,6})$/;
const MDL_FORM = /^MDL\s+No\.?\s*(\d{1,6})$/i;

const CRIMINAL_TYPES = new Set(["cr", "mj", "po", "pt", "mag"]);

/** A docket number with no CM/ECF parts (office, case type, judges, defendant). */
export function emptyParts(docketNumber: string, full: string): DocketNumberParts {
  return {
    docket_number: docketNumber,
    federal_dn_office_code: null,
    federal_dn_case_type: null,
    federal_dn_judge_initials_assigned: null,
    federal_dn_judge_initials_referred: null,
    federal_defendant_number: null,
    full,
    court_code: null,
  };
}

interface Suffixes {
  judges: string[];
  office: string | null;
  trailingNumber: string | null;
}

function readSuffixes(suffix: string, allowOffice: boolean): Suffixes {
  const tokens = suffix.split("-").filter(Boolean);
  const judges: string[] = [];
  let office: string | null = null;
  let trailingNumber: string | null = null;
  tokens.forEach((token, i) => {
    if (/^\d+$/.test(token)) {
      // A number followed by judge initials is the office ("22-00105-5-JNC");
      // a number at the end is a chapter or a defendant number.
      const next = tokens[i + 1];
      if (allowOffice && office === null && judges.length === 0 && next && /^[A-Za-z]/.test(next)) office = token;
      else if (i === tokens.length - 1) trailingNumber = token;
      return;
    }
    const initials = /^([A-Za-z]{1,6})\d{0,2}$/.exec(token);
    if (initials?.[1]) judges.push(initials[1]);
  });
  return { judges, office, trailingNumber };
}

const COURT_PREFIX = /^([A-Za-z]{2,5})\/(?=\d|MDL)/;
const COURT_SUFFIX = /(?:\/([A-Za-z]{2,5})|\s{0,3}\(([A-Z]{2,5})\))$/;

/** Split a printed docket number; null when the text is not a docket number. */
export function parseDocketNumber(raw: string | null | undefined): DocketNumberParts | null {
  if (typeof raw !== "string") return null;
  const printed = raw.slice(0, 200).trim();
  // A closing parenthesis is punctuation after the number, except around a court code.
  const full = (/\([A-Z]{2,5}\)$/.test(printed) ? printed : trimChars(printed, ".,;:)]", "end")).slice(0, 80);
  if (!full) return null;
  const prefix = COURT_PREFIX.exec(full);
  const suffix = COURT_SUFFIX.exec(full);
  const code = prefix?.[1] ?? suffix?.[1] ?? suffix?.[2] ?? null;
  const core = full.slice(prefix ? prefix[0].length : 0, suffix ? full.length - suffix[0].length : full.length);
  const parts = parseCore(core, full);
  return parts ? { ...parts, court_code: code ? code.toUpperCase() : null } : null;
}

function parseCore(core: string, full: string): DocketNumberParts | null {
  if (!core) return null;

  let m = FULL_FORM.exec(core);
  if (m) {
    const [, office = "", year = "", type = "", num = "", suffix = ""] = m;
    const s = readSuffixes(suffix, false);
    const criminal = CRIMINAL_TYPES.has(type.toLowerCase());
    return {
      docket_number: `${office}:${year}-${type}-${num}`,
      federal_dn_office_code: office,
      federal_dn_case_type: type,
      federal_dn_judge_initials_assigned: s.judges[0] ?? null,
      federal_dn_judge_initials_referred: s.judges[1] ?? null,
      federal_defendant_number: criminal ? s.trailingNumber : null,
      full,
      court_code: null,
    };
  }
  m = NY_BANKRUPTCY_FORM.exec(core);
  if (m) {
    const s = readSuffixes(m[2] ?? "", false);
    return {
      ...emptyParts(m[1] ?? full, full),
      federal_dn_judge_initials_assigned: s.judges[0] ?? null,
      federal_dn_judge_initials_referred: s.judges[1] ?? null,
    };
  }
  m = SHORT_FORM.exec(core);
  if (m) {
    const s = readSuffixes(m[2] ?? "", true);
    return {
      ...emptyParts(m[1] ?? full, full),
      federal_dn_office_code: s.office,
      federal_dn_judge_initials_assigned: s.judges[0] ?? null,
      federal_dn_judge_initials_referred: s.judges[1] ?? null,
    };
  }
  m = MDL_FORM.exec(core);
  if (m) return emptyParts(`MDL No. ${m[1]}`, full);
  return null;
}

/** Appellate docket numbers carry no parts; suffixes such as "-W" are dropped. */
export function parseAppellateDocketNumber(raw: string | null | undefined): DocketNumberParts | null {
  const parts = parseDocketNumber(raw);
  if (!parts) return null;
  const core = /^(\d{2,4}-\d{1,7})/.exec(parts.docket_number);
  return { ...emptyParts(core?.[1] ?? parts.docket_number, parts.full), court_code: parts.court_code };
}

const TOKEN =
  /(?:[A-Za-z]{2,5}\/)?(?:MDL\s+No\.?\s*\d{1,6}|\d{1,2}:\d{2,4}-[A-Za-z]{1,4}-\d{1,7}(?:-[A-Za-z0-9]{1,10}){0,6}|\d-\d{2}-\d{3,7}(?:-[A-Za-z0-9]{1,10}){0,6}|\d{2,4}-\d{1,7}(?:-[A-Za-z0-9]{1,10}){0,6})(?:\/[A-Za-z]{2,5}(?![A-Za-z0-9])|\s{0,3}\([A-Z]{2,5}\))?/g;

/** First docket number in a piece of text (e.g. the "Case Number:" cell). */
export function firstDocketNumber(text: string): string | null {
  TOKEN.lastIndex = 0;
  for (const m of text.slice(0, 400).matchAll(TOKEN)) {
    const start = m.index ?? 0;
    const before = text[start - 1] ?? " ";
    const after = text[start + m[0].length] ?? " ";
    if (/[A-Za-z0-9:/]/.test(before) || /[A-Za-z0-9/:]/.test(after)) continue;
    return m[0];
  }
  return null;
}
