// Pieces shared by the NEF, NDA and ACMS parsers.
import { courtIdFromDistrictCode } from "../jurisdictions/federal-courts";
import { cleanCaseName } from "./case-name";
import type { DocketNumberParts } from "./docket-number";
import { MAX_DESCRIPTION_CHARS } from "./limits";
import type { LabelHit } from "./labels";
import type { MailContent } from "./mime";
import type { TextDoc } from "./text-doc";
import { collapse, trimChars, usDateToIso } from "./text-utils";

export interface NoticeContext {
  mail: MailContent | null;
  /** Subject of the court's message: the quoted original for forwarded notices, else the Subject header. */
  subject: string | null;
}

export interface TransactionDates {
  filed: string | null;
  entered: string | null;
}

const US_DATE = String.raw`(\d{1,2}\/\d{1,2}\/\d{2,4})`;
const FILED_ON = new RegExp(String.raw`\bfiled\s+on\s+${US_DATE}`, "i");
const ENTERED_ON = new RegExp(String.raw`\bentered\b[^\n]{0,200}?\bon\s+${US_DATE}`, "i");

/** Dates of "The following transaction was entered [by X] on D … and filed on D". */
export function transactionDates(text: string, from: number, to: number): TransactionDates {
  const start = Math.max(0, from);
  const sentenceAt = text.slice(start, Math.max(start, to)).search(/following transaction/i);
  const region = collapse(text.slice(sentenceAt >= 0 ? start + sentenceAt : start, Math.max(start, to)).slice(0, 1200));
  const filed = FILED_ON.exec(region);
  const entered = ENTERED_ON.exec(region);
  const enteredIso = usDateToIso(entered?.[1]);
  return { filed: usDateToIso(filed?.[1]) ?? enteredIso, entered: enteredIso };
}

/**
 * Docket text as stored: whitespace collapsed, and the number signs CM/ECF
 * puts before linked and plain numbers ("Attachments: # (1) Exhibit",
 * "Related Doc # [75]", "docket #10") dropped, as the corpus convention has it.
 */
export function cleanDescription(raw: string): string | null {
  let joined = "";
  for (const rawLine of raw.slice(0, MAX_DESCRIPTION_CHARS).split("\n")) {
    const line = rawLine.trim();
    if (!line) continue;
    // A block boundary right before punctuation is markup, not a word break ("zoom/.</p>, Set").
    joined += joined && !",.;:)".includes(line[0] ?? "") ? ` ${line}` : line;
  }
  const text = collapse(joined).replace(/# ?(?=[\w([])/g, "");
  return text || null;
}

const ABBREVIATION = /^(?:Inc|Corp|Co|Ltd|Jr|Sr|Bros|Assn|Dept|Natl|Intl|Mr|Mrs|Ms|Dr|Hon|St|No|[A-Za-z](?:\.[A-Za-z])*)$/;
// Clauses CM/ECF appends after the filer ("… L.P. Hearing scheduled for …").
const FOLLOW_ON = /^(?:Hearing|Objections?|Responses?|Replies|Fee|Receipt|Modified|Related|Signed|Motion|Document|Filed|Entered)\b/;
const MAX_FILER_CHARS = 200;

/** The filer named in docket text ("… Filed by Jane Roe on behalf of …"). */
export function filedByFromDescription(description: string | null): string | null {
  if (!description) return null;
  const m = new RegExp(String.raw`\b(?:[Ff]iled|FILED) by\s+([^;()[\]]{2,${MAX_FILER_CHARS}})`).exec(description);
  if (!m?.[1]) return null;
  let name = m[1];
  const behalf = name.search(/\s+on behalf of\b/i);
  if (behalf >= 0) name = name.slice(0, behalf);
  // A full stop ends the name unless it closes an abbreviation or an initial
  // ("Ms. Jane Roe", "James S. Livermon", "Acme, Inc."); the usual follow-on
  // clauses end it in any case.
  for (const stop of name.matchAll(/\.(\s*)(?=[A-Z0-9])/g)) {
    const at = stop.index ?? 0;
    const rest = name.slice(at + 1).trimStart();
    const word = /([A-Za-z.]+)$/.exec(name.slice(Math.max(0, at - 20), at))?.[1] ?? "";
    if (FOLLOW_ON.test(rest) || (!ABBREVIATION.test(word) && (stop[1] === "" || /^(?:[A-Z][a-z]{2,}|\d)/.test(rest)))) {
      name = name.slice(0, at + 1);
      break;
    }
  }
  if (m[1].length >= MAX_FILER_CHARS && name === m[1]) name = name.slice(0, Math.max(name.lastIndexOf(","), 0)) || name;
  name = trimChars(collapse(name), " ,");
  // Keep the full stop of an abbreviation ("Inc.", "L.P."), drop a sentence's.
  const lastWord = /([A-Za-z]+(?:\.[A-Za-z]+)*)\.+$/.exec(name.slice(-40))?.[1] ?? "";
  if (name.endsWith(".")) name = `${trimChars(name, ".", "end")}${ABBREVIATION.test(lastWord) ? "." : ""}`;
  return name || null;
}

/** The "Filer:" row; several filers are printed one per line. */
export function filerRow(value: string): string | null {
  const filers = value
    .split("\n")
    .map((line) => collapse(line))
    .filter(Boolean);
  return filers.length ? filers.join(", ") : null;
}

/** Text of a label's value. */
export function valueText(doc: TextDoc, hit: LabelHit | undefined): string {
  return hit ? doc.text.slice(hit.valueStart, hit.valueEnd) : "";
}

export function caseNameFrom(raw: string): { raw: string; clean: string } {
  const rawName = collapse(raw);
  return { raw: rawName, clean: cleanCaseName(rawName) };
}

/** Entry fields only CM/ECF links give: null in notices of other systems (the Supreme Court, state e-filing). */
export const NO_PACER_IDS = { pacer_doc_id: null, pacer_case_id: null, pacer_seq_no: null, pacer_magic_num: null } as const;

/** The docket-number fields of a ParsedDocket, in its key order. */
export function docketNumberFields(parts: DocketNumberParts) {
  return {
    docket_number: parts.docket_number,
    federal_dn_office_code: parts.federal_dn_office_code,
    federal_dn_case_type: parts.federal_dn_case_type,
    federal_dn_judge_initials_assigned: parts.federal_dn_judge_initials_assigned,
    federal_dn_judge_initials_referred: parts.federal_dn_judge_initials_referred,
    federal_defendant_number: parts.federal_defendant_number,
    docket_number_full: parts.full,
    docket_court_id: courtIdFromDistrictCode(parts.court_code) ?? null,
  };
}
