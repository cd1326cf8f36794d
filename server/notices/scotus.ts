// Docket notifications of the Supreme Court's electronic filing system (from no-reply@sc-us.gov,
// subject "Supreme Court Electronic Filing System", one HTML sentence):
//
//   A new docket entry, "Adjudged to be AFFIRMED. Sotomayor, J., delivered the <a href=
//   'https://www.supremecourt.gov/opinions/25pdf/25-83_3e04.pdf'>opinion</a> for a unanimous
//   Court." has been added for <a href='https://www.supremecourt.gov/search.aspx?filename=
//   /docket/DocketFiles/html/Public/25-83.html'>Adrian Jules, Petitioner v. Andre Balazs
//   Properties, et al.</a>. You have been signed up to receive email notifications for No. 25-83.
//
// The entry text (absent in "A new docket entry has been added for …") may link the entry's
// public documents; the case link names the docket ("25-83", "25A1208" for an application).
import { SUPREME_COURT, courtIdFromHost } from "../jurisdictions/federal-courts";
import { cleanCaseName } from "./case-name";
import { cleanDescription, docketNumberFields, NO_PACER_IDS, type NoticeContext } from "./common";
import { emptyParts } from "./docket-number";
import type { TextDoc, TextLink } from "./text-doc";
import { collapse } from "./text-utils";
import type { NoticeDocument, ParsedNotice } from "./types";

const HEADLINE = "a new docket entry";
const ADDED_FOR = "has been added for";
/** "25-83", "25A1208" (application), "25M11" (motion), "22O141" (original action). */
const DOCKET_NUMBER = /^(\d{2})([-AMO])(\d{1,5})$/i;
const DOCKET_PAGE = /\/docket\/docketfiles\/(?:html\/public\/)?([0-9a-z-]{3,12})\.html?$/i;

const HEADLINE_WORDS = /A new docket entry\b/i;
const ADDED_FOR_WORDS = /\bhas been added for\b/i;
const COURT_NAMED = /\b(?:supremecourt\.gov|sc-us\.gov)\b|notifications for No\.\s?\d{2}[-AMO]\d/i;

/** Sent by the Supreme Court, or worded as its docket notifications are (a forward, say). */
export function looksLikeScotus(doc: TextDoc, senders: readonly string[]): boolean {
  if (senders.some((s) => courtIdFromHost(s) === SUPREME_COURT)) return true;
  const head = doc.text.slice(0, 20_000);
  const headline = head.search(HEADLINE_WORDS);
  const worded = headline >= 0 && ADDED_FOR_WORDS.test(head.slice(headline));
  return worded && (COURT_NAMED.test(head) || doc.links.some((l) => courtIdFromHost(l.href) === SUPREME_COURT));
}

/** "25a1208" → "25A1208"; null for anything that is not a Supreme Court docket number. */
function docketNumberOf(value: string | null | undefined): string | null {
  const m = DOCKET_NUMBER.exec((value ?? "").trim());
  return m ? `${m[1]}${(m[2] ?? "").toUpperCase()}${m[3]}` : null;
}

/** The docket number a docket-page link names (in its path or its `filename` parameter). */
function docketOfLink(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const path = url.searchParams.get("filename") ?? url.pathname;
  return docketNumberOf(DOCKET_PAGE.exec(path)?.[1]);
}

// The parties' roles the Court prints after each name ("Okello T. Chatrie, Petitioner").
const ROLES = /,\s*(?:Petitioners?|Respondents?|Applicants?|Appellants?|Appellees?|Movants?|Plaintiffs?|Defendants?)\b(?=\s*(?:v\.|$|,))/gi;

function caseName(raw: string): string {
  return cleanCaseName(collapse(raw).replace(ROLES, ""));
}

// A full stop that ends a sentence, not an initial or an abbreviation ("Corey J. Biazzo, Esq.").
const SENTENCE_END = /^.{3,200}?(?<!\b(?:[A-Z]|JJ|Esq|Inc|Co|Corp|No|Nos|Jr|Sr|v))[.!?](?=\s+[A-Z]|$)/;

/** A short label for the entry: its text, or the first sentence of a long one. */
function shortLabel(text: string): string {
  if (text.length <= 120) return text;
  return (SENTENCE_END.exec(text)?.[0] ?? text.slice(0, 200)).trim();
}

/** "opinion" (the linked word of the entry text) → "Opinion". */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Date in Washington of the message, as ISO date. */
function courtDate(date: Date | null | undefined): string | null {
  if (!date) return null;
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/** Parse a Supreme Court docket notification; null when the message holds none. */
export function parseScotus(doc: TextDoc, ctx: NoticeContext): ParsedNotice | null {
  const text = doc.text;
  const lower = text.toLowerCase();
  const start = lower.indexOf(HEADLINE);
  if (start < 0) return null;
  const addedAt = lower.indexOf(ADDED_FOR, start);
  if (addedAt < 0) return null;
  // The entry text is quoted between the headline and "has been added for".
  const quoted = text.slice(start + HEADLINE.length, addedAt);
  const open = quoted.indexOf('"');
  const close = quoted.lastIndexOf('"');
  const entryStart = start + HEADLINE.length + open + 1;
  const entryEnd = start + HEADLINE.length + close;
  const entryText = open >= 0 && close > open ? cleanDescription(text.slice(entryStart, entryEnd)) : null;

  const caseStart = addedAt + ADDED_FOR.length;
  const caseLink: TextLink | undefined = doc.links.find((l) => l.start >= caseStart && docketOfLink(l.href));
  const signedUp = /notifications for No\.?\s*([0-9]{2}[-AMO][0-9]{1,5})\b/i.exec(text.slice(caseStart, caseStart + 4000));
  const docketNumber = (caseLink ? docketOfLink(caseLink.href) : null) ?? docketNumberOf(signedUp?.[1]);
  if (!docketNumber) return null;
  const caseEnd = caseLink ? caseLink.end : caseStart + Math.max(0, text.slice(caseStart).search(/\.\s+You have been signed up/i));
  const name = caseName(caseLink?.text || text.slice(caseStart, caseEnd));

  const documents: NoticeDocument[] = doc.links
    .filter((l) => l.start >= entryStart && l.start < entryEnd && /^https?:\/\//i.test(l.href) && courtIdFromHost(l.href) === SUPREME_COURT)
    .filter((l) => !docketOfLink(l.href))
    .map((l, number) => ({ number, description: capitalised(collapse(l.text)) || null, url: l.href, pacer_doc_id: null }));
  const main = documents[0] ?? null;
  const date = courtDate(ctx.mail?.date);
  const host = caseLink ? new URL(caseLink.href).hostname.toLowerCase() : null;

  return {
    court_id: SUPREME_COURT,
    appellate: true,
    acms: false,
    contains_attachments: documents.length > 1,
    email_recipients: [],
    dockets: [
      {
        ...docketNumberFields(emptyParts(docketNumber, docketNumber)),
        case_name: name,
        date_filed: null,
        docket_entries: [
          {
            date_filed: date,
            description: entryText,
            short_description: entryText ? shortLabel(entryText) : null,
            document_number: null,
            document_url: main?.url ?? null,
            ...NO_PACER_IDS,
            filed_by: null,
            entered_on: date,
            sealed: false,
            documents,
          },
        ],
      },
    ],
    message_id: ctx.mail?.messageId ?? null,
    subject: ctx.mail?.subject ?? ctx.subject,
    sent_at: ctx.mail?.date ? ctx.mail.date.toISOString() : null,
    court_host: host,
    notice_type: "SCOTUS",
  };
}
