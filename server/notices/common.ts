// Pieces shared by the NEF, NDA and ACMS parsers.
import { cleanCaseName } from "./case-name";
import type { DocketNumberParts } from "./docket-number";
import { MAX_DESCRIPTION_CHARS } from "./limits";
import type { LabelHit } from "./labels";
import type { MailContent } from "./mime";
import type { TextDoc } from "./text-doc";
import { collapse, usDateToIso } from "./text-utils";

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

/** Dates of "The following transaction was entered [by X] on D … and filed on D". */
export function transactionDates(text: string, from: number, to: number): TransactionDates {
  const start = Math.max(0, from);
  const sentenceAt = text.slice(start, Math.max(start, to)).search(/following transaction/i);
  const region = collapse(text.slice(sentenceAt >= 0 ? start + sentenceAt : start, Math.max(start, to)).slice(0, 1200));
  const filed = new RegExp(String.raw`\bfiled\s+on\s+${US_DATE}`, "i").exec(region);
  const entered = new RegExp(String.raw`\bentered\b[^\n]{0,200}?\bon\s+${US_DATE}`, "i").exec(region);
  const enteredIso = usDateToIso(entered?.[1]);
  return { filed: usDateToIso(filed?.[1]) ?? enteredIso, entered: enteredIso };
}

/**
 * Docket text as stored: whitespace collapsed, and the number signs CM/ECF
 * puts before linked and plain numbers ("Attachments: # (1) Exhibit",
 * "Related Doc # [75]", "docket #10") dropped, as the corpus convention has it.
 */
export function cleanDescription(raw: string): string | null {
  const text = collapse(
    raw
      .slice(0, MAX_DESCRIPTION_CHARS)
      // A block boundary right before punctuation is markup, not a word break ("zoom/.</p>, Set").
      .replace(/[ \t]*\n\s*(?=[,.;:)])/g, ""),
  ).replace(/#\s*(?=[\w([])/g, "");
  return text || null;
}

/** The filer named in docket text ("… Filed by Jane Roe on behalf of …"). */
export function filedByFromDescription(description: string | null): string | null {
  if (!description) return null;
  const m = /\b(?:[Ff]iled|FILED) by\s+([^;()[\]]{2,200})/.exec(description);
  if (!m?.[1]) return null;
  let name = m[1];
  const behalf = name.search(/\s+on behalf of\b/i);
  if (behalf >= 0) name = name.slice(0, behalf);
  // A full stop ends the name unless it closes an initial ("James S. Livermon");
  // the usual follow-on clauses end it even after an abbreviation ("L.P. Hearing scheduled").
  const clause = name.search(/\.\s+(?=(?:Hearing|Objections?|Responses?|Replies|Fee|Receipt|Modified|Related|Signed|Motion|Document|Filed|Entered)\b)/);
  if (clause >= 0) name = name.slice(0, clause + 1);
  const sentence = name.search(/(?<!(?:^|[\s.])[A-Z])\.(?:\s+(?=[A-Z][a-z]{2,})|[A-Z][a-z])/);
  if (sentence >= 0) name = name.slice(0, sentence + 1);
  name = collapse(name).replace(/\.{2,}$/, ".").replace(/[\s,]+$/, "");
  return name || null;
}

export function valueText(doc: TextDoc, hit: LabelHit | undefined, end?: number): string {
  if (!hit) return "";
  return doc.text.slice(hit.valueStart, Math.min(end ?? hit.valueEnd, hit.valueEnd));
}

export function caseNameFrom(raw: string): { raw: string; clean: string } {
  const rawName = collapse(raw);
  return { raw: rawName, clean: cleanCaseName(rawName) };
}

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
  };
}
