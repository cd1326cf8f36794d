// State e-filing providers' notices: Tyler Technologies' Odyssey eFileAndServe
// (eFileTexas.gov and the other states' portals) "Notification of Service",
// "Filing Accepted" and "Filing Rejected", and File & ServeXpress service
// notifications. Each becomes one docket with one entry: the envelope (or
// transaction), its documents' download links, who filed it and the service
// contacts. These layouts were written from the providers' published user
// guides, not from real messages; docs/parsers.md says what was verified.
//
//   Notification of Service                    Filing Accepted / Filing Rejected
//   Case Number: 2024-CI-18817                  Court: Bexar County - 285th District Court
//   Case Style: Avery vs. Pecan Valley          Date/Time Accepted: 10/9/2024 8:58 AM CST
//   Envelope Number: 93125567                   Filing Code: Motion (No Fee)
//   Filing Description: Motion to Compel        File Stamped Copy: Download Document (link)
//   Filed By: Marisol Quintanilla               Rejection Reason: …
//   Service Contacts: Name (address) …
//   Served Document: Download Document (link)
//
//   File & ServeXpress: Transaction ID, Court, Case Number, Case Name, Document
//   Type, Document Title, Authorized By, Sending Parties, Documents (links),
//   Service List "Name, Firm (address)".
//
// Tyler's subjects carry the case and the envelope, in the forms real mail has:
//   Filing Submitted for Case: 120519758; ; Envelope Number: 88112233
//   Filing Accepted for Case: 2024-CI-18817; Avery vs. Pecan Valley; Envelope Number: 93125567
//   Notification of Service for Case: 2024-CI-18817, Avery vs. … for filing …, Envelope Number: …
// and its bodies label the case "Case Number:", "Case #:" or "Case No.:", in tables and lists.
import { stateCourtId } from "../jurisdictions/federal-courts";
import type { NoticeContext } from "./common";
import { cleanDescription, NO_PACER_IDS } from "./common";
import { MAX_RECIPIENTS } from "./limits";
import { stripSubjectPrefixes } from "./subject";
import type { TextDoc, TextLink } from "./text-doc";
import { collapse, findEmails, trimChars, usDateToIso } from "./text-utils";
import type { EmailRecipient, NoticeDocument, ParsedNotice } from "./types";

type Provider = "tyler" | "fsx";

// Portal domains of Tyler's state e-filing systems and the state each serves.
const TYLER_DOMAINS: readonly (readonly [RegExp, string | null])[] = [
  [/(?:^|\.)efiletexas\.gov$|(?:^|\.)efile\.txcourts\.gov$/, "TX"],
  [/(?:^|\.)efileil\.com$|(?:^|\.)illinoiscourts\.gov$/, "IL"],
  [/(?:^|\.)odysseyefileca\.com$/, "CA"],
  [/(?:^|\.)efile\.incourts\.gov$/, "IN"],
  [/(?:^|\.)efilega\.com$/, "GA"],
  [/(?:^|\.)efilemn\.com$|(?:^|\.)mncourts\.gov$/, "MN"],
  [/(?:^|\.)efilema\.com$/, "MA"],
  [/(?:^|\.)tylertech\.cloud$|(?:^|\.)tylerhost\.net$|(?:^|\.)tylertech\.com$/, null],
];
const FSX_DOMAIN = /(?:^|\.)fileandservexpress\.com$/;

// "<what happened> for Case: <number>…" (see above).
const TYLER_SUBJECT = /^(.{4,60}?)\s+for\s+Case\s*:\s*/i;
const TYLER_TEXT = /\b(?:eFileTexas|eFileAndServe|Odyssey eFile|eFile(?:IL|CA|GA|MN|MA)|Envelope Number)\b/i;
const ENVELOPE_OR_TRANSACTION = /Envelope Number|Transaction (?:ID|Number)/i;
const FSX_TEXT = /File (?:&|&amp;|and) ?ServeXpress/i;

function domainOf(address: string): string {
  return address.replace(/^.*@/, "").toLowerCase();
}

/** Which provider sent the message, by its sender's domain, its subject or its wording; null for anything else. */
export function stateProvider(doc: TextDoc, senders: readonly string[], subject: string | null = null): { provider: Provider; state: string | null } | null {
  for (const sender of senders) {
    const domain = domainOf(sender);
    if (FSX_DOMAIN.test(domain)) return { provider: "fsx", state: null };
    for (const [re, state] of TYLER_DOMAINS) if (re.test(domain)) return { provider: "tyler", state };
  }
  const tylerSubject = subject ? tylerSubjectParts(subject) : null;
  if (tylerSubject?.envelope || (tylerSubject && TYLER_KIND.test(tylerSubject.kind))) return { provider: "tyler", state: null };
  const head = doc.text.slice(0, 20_000);
  // Both providers number what they send; without that there is nothing to look for.
  if (!ENVELOPE_OR_TRANSACTION.test(head)) return null;
  if (FSX_TEXT.test(head) && /Transaction (?:ID|Number)/i.test(head)) return { provider: "fsx", state: null };
  if (TYLER_TEXT.test(head) && /Envelope Number/i.test(head)) return { provider: "tyler", state: null };
  return null;
}

// What Tyler's subjects say happened to the envelope.
const TYLER_KIND = /^(?:Filing (?:Submitted|Accepted|Rejected)|(?:Notification|Administrative Copy) of Service|Service Notification)$/i;

interface TylerSubject {
  kind: string;
  caseNumber: string | null;
  caseStyle: string | null;
  envelope: string | null;
}

/** "Filing Submitted for Case: 120519758; ; Envelope Number: 88112233" in its parts; null for other subjects. */
export function tylerSubjectParts(subject: string): TylerSubject | null {
  const s = stripSubjectPrefixes(subject);
  const head = TYLER_SUBJECT.exec(s);
  if (!head) return null;
  let rest = s.slice(head[0].length);
  const envelopeAt = /[;,]?\s*Envelope Number\s*:\s*(\d{1,15})\b/i.exec(rest);
  if (envelopeAt) rest = rest.slice(0, envelopeAt.index);
  const number = /^[^\s;,]{2,40}/.exec(rest)?.[0] ?? null;
  // The case style follows the number ("; style;" or ", style for filing …"), or is left empty ("; ;").
  const style = collapse(
    trimChars(rest.slice(number?.length ?? 0), " ;,")
      .replace(/\s+for filing\b.*$/i, "")
      .replace(/[;,]\s*$/, ""),
  );
  return { kind: collapse(head[1] ?? ""), caseNumber: number, caseStyle: style || null, envelope: envelopeAt?.[1] ?? null };
}

const LABELS = [
  "Case Number",
  "Case Style",
  "Case Name",
  "Court",
  "Location",
  "Envelope Number",
  "Transaction ID",
  "Transaction Number",
  "Date/Time Submitted",
  "Submitted",
  "Date/Time Accepted",
  "Date/Time Rejected",
  "Accepted Comments",
  "Rejection Reason",
  "Rejection Comment",
  "Filing Type",
  "Filing Code",
  "Filing Description",
  "Document Type",
  "Document Title",
  "Filed By",
  "Authorized By",
  "Sending Parties",
  "Sending Firm",
  "Client Reference Number",
  "Service Contacts",
  "Served Document",
  "Lead Document",
  "Lead Document Page Count",
  "File Stamped Copy",
  "Attachment",
  "Documents",
  "Service List",
  "Transaction Option",
] as const;
type Label = (typeof LABELS)[number];

// Other spellings of the same labels that portals print.
const ALIASES: Readonly<Record<string, Label>> = {
  "Case #": "Case Number",
  "Case No.": "Case Number",
  "Case No": "Case Number",
  "Case Title": "Case Style",
  "Envelope #": "Envelope Number",
  "Envelope No.": "Envelope Number",
  "Envelope ID": "Envelope Number",
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/#]/g, "\\$&");

// Labels start a line (after a list bullet in plain text); in HTML tables the value follows in the
// next cell (a space after conversion), in plain text after a colon, in some lists on the next line.
const LABEL_LINE = new RegExp(
  `(^|\\n)[ \\t]{0,8}(?:[-*\u2022\u00b7][ \\t]{1,4})?(${[...LABELS, ...Object.keys(ALIASES)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|")})[ \\t]{0,4}(?::[ \\t]{0,20}|[ \\t]{1,20}|(?=\\n))`,
  "gi",
);
const CANONICAL = new Map<string, Label>([
  ...LABELS.map((l): [string, Label] => [l.toLowerCase(), l]),
  ...Object.entries(ALIASES).map(([alias, l]): [string, Label] => [alias.toLowerCase(), l]),
]);

interface Field {
  label: Label;
  start: number;
  valueStart: number;
  valueEnd: number;
}

/** The first occurrence of each label (the summary above "Filing Details" repeats a few). */
function scanFields(text: string): Map<Label, Field> {
  const hits: Field[] = [];
  for (const m of text.matchAll(LABEL_LINE)) {
    const label = CANONICAL.get((m[2] ?? "").toLowerCase());
    if (!label) continue;
    const start = (m.index ?? 0) + (m[1] ?? "").length;
    hits.push({ label, start, valueStart: (m.index ?? 0) + m[0].length, valueEnd: text.length });
    if (hits.length > 500) break;
  }
  const fields = new Map<Label, Field>();
  hits.forEach((hit, i) => {
    hit.valueEnd = hits[i + 1]?.start ?? text.length;
    if (!fields.has(hit.label)) fields.set(hit.label, hit);
  });
  return fields;
}

// Section titles and boilerplate that end a multi-line value.
const SECTION_END = /\n(?:Filing Details|Document Details|Documents|Service List|This link is active|If the link does not work|Please click)\b/i;

function fieldText(text: string, field: Field | undefined, multiline = false): string | null {
  if (!field) return null;
  let value = text.slice(field.valueStart, field.valueEnd);
  const end = value.search(SECTION_END);
  if (end >= 0) value = value.slice(0, end);
  if (multiline) return value.trim() || null;
  // A list may put the value on the line below its label.
  const [first = "", second = ""] = value.split("\n", 2);
  return collapse(first) || collapse(second) || null;
}

function linksOf(doc: TextDoc, field: Field | undefined): TextLink[] {
  if (!field) return [];
  return doc.links.filter((l) => l.start >= field.valueStart && l.start < field.valueEnd && /^https?:\/\//i.test(l.href));
}

/** "Name (address)" or "Name, Firm (address)" lines; party headings ("Acme LLC:") are skipped. */
function serviceContacts(value: string | null): EmailRecipient[] {
  const out: EmailRecipient[] = [];
  for (const line of (value ?? "").split("\n")) {
    const emails = findEmails(line);
    const first = emails[0];
    if (!first) continue;
    // "Name, Firm (address)": the person's name is what comes before the firm.
    const name = trimChars(collapse(line.slice(0, first.start)), " ,;:-(<[").split(",")[0] ?? "";
    out.push({ name: collapse(name), email_addresses: emails.map((e) => e.email) });
    if (out.length >= MAX_RECIPIENTS) break;
  }
  return out;
}

function isoDate(value: string | null): string | null {
  return usDateToIso(value);
}

function documentsFrom(doc: TextDoc, fields: Map<Label, Field>, names: readonly Label[]): NoticeDocument[] {
  const documents: NoticeDocument[] = [];
  for (const label of names) {
    const field = fields.get(label);
    const links =
      label === "Documents"
        ? doc.links.filter(
            (l) => field && l.start >= field.valueStart && l.start < (fields.get("Service List")?.start ?? field.valueEnd) && /^https?:\/\//i.test(l.href),
          )
        : linksOf(doc, field);
    for (const link of links) {
      const shown = collapse(link.text);
      const description =
        /^download(?: document)?$/i.test(shown) || shown === link.href
          ? label === "File Stamped Copy"
            ? "File Stamped Copy"
            : label === "Served Document"
              ? fieldText(doc.text, fields.get("Filing Description"))
              : null
          : shown;
      documents.push({ number: documents.length, description: description ?? null, url: link.href, pacer_doc_id: null });
    }
  }
  return documents;
}

/** Status of the envelope the message reports: the subject says it first, then the body's fields and wording. */
function statusOf(subject: string, fields: Map<Label, Field>, head: string): "served" | "accepted" | "rejected" | "submitted" {
  if (/^Filing Rejected\b/i.test(subject) || fields.has("Rejection Reason") || fields.has("Date/Time Rejected")) return "rejected";
  if (/^Filing Accepted\b/i.test(subject) || fields.has("Date/Time Accepted")) return "accepted";
  if (/^Filing Submitted\b/i.test(subject)) return "submitted";
  if (/Notification of Service|Copy of Service|Service Notification|You have been served/i.test(subject)) return "served";
  if (fields.has("Served Document") || fields.has("Service List") || /\bYou have been served\b/i.test(head)) return "served";
  return "submitted";
}

// Tyler runs a portal per state under its own hosts ("indiana.tylerhost.net"), and sends much of
// its mail from one address (efilingmail@tylerhost.net) whatever the state.
const TYLER_STATE_HOST = /^([a-z]+)\.(?:tylerhost\.net|tylertech\.cloud)$/;
// "Indiana E-Filing System", "eFile Indiana", "eFileIL".
const PORTAL_NAME = /\b([A-Z][a-z]+(?: [A-Z][a-z]+)?) [Ee]-?[Ff]iling\b|\be-?File ?([A-Z][a-z]+(?: [A-Z][a-z]+)?|[A-Z]{2})\b/g;
// Indiana numbers every case alike: county and court, year and month, case type, sequence.
const INDIANA_CASE_NUMBER = /^\d{2}[A-Z]\d{2}-\d{4}-[A-Z]{2}-\d{1,6}$/;

function hostOf(value: string): string {
  try {
    return value.includes("://") ? new URL(value).hostname.toLowerCase() : domainOf(value);
  } catch {
    return "";
  }
}

/** The state of a Tyler portal, from the hosts the message comes from and links to, and the portal's name. */
function stateOfPortal(doc: TextDoc, mail: NoticeContext["mail"], caseNumber: string): string | null {
  for (const value of [...(mail?.senderAddresses ?? []), ...doc.links.slice(0, 200).map((l) => l.href)]) {
    const name = TYLER_STATE_HOST.exec(hostOf(value))?.[1];
    if (name && stateCourtId(name)) return name;
  }
  const named = `${mail?.headers.get("from") ?? ""}\n${doc.text.slice(0, 5000)}`;
  for (const m of named.matchAll(PORTAL_NAME)) {
    const name = m[1] ?? m[2] ?? "";
    if (stateCourtId(name)) return name;
  }
  return INDIANA_CASE_NUMBER.test(caseNumber) ? "IN" : null;
}

/** State named by a court line ("CA Superior Court County of San Francisco", "Superior Court of California"). */
function stateFromCourt(court: string | null): string | null {
  if (!court) return null;
  const code = /^([A-Z]{2})\s/.exec(court)?.[1];
  if (code && stateCourtId(code)) return code;
  const named = /\b(?:of|for)\s+(?:the\s+)?(?:State\s+of\s+)?([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b/.exec(court)?.[1];
  return named && stateCourtId(named) ? named : null;
}

/** Parse a state e-filing notice; null when the message holds no case number. */
export function parseStateEfiling(doc: TextDoc, ctx: NoticeContext, provider: { provider: Provider; state: string | null }): ParsedNotice | null {
  const text = doc.text;
  const fields = scanFields(text);
  const subject = ctx.subject ? stripSubjectPrefixes(ctx.subject) : "";
  const fromSubject = provider.provider === "tyler" ? tylerSubjectParts(subject) : null;
  const caseNumber = fieldText(text, fields.get("Case Number")) ?? fromSubject?.caseNumber;
  if (!caseNumber) return null;
  const status = statusOf(subject, fields, text.slice(0, 5000));

  const court = fieldText(text, fields.get("Court")) ?? fieldText(text, fields.get("Location"));
  const state = provider.state ?? stateFromCourt(court) ?? (provider.provider === "tyler" ? stateOfPortal(doc, ctx.mail, caseNumber) : null);
  const envelope =
    fieldText(text, fields.get("Envelope Number")) ??
    fieldText(text, fields.get("Transaction ID")) ??
    fieldText(text, fields.get("Transaction Number")) ??
    fromSubject?.envelope ??
    null;
  const filingCode = fieldText(text, fields.get("Filing Code")) ?? fieldText(text, fields.get("Document Type"));
  const filingDescription = fieldText(text, fields.get("Filing Description")) ?? fieldText(text, fields.get("Document Title"));
  const reason = fieldText(text, fields.get("Rejection Reason")) ?? fieldText(text, fields.get("Rejection Comment"));
  const comments = fieldText(text, fields.get("Accepted Comments"));
  const statusWord = status === "served" ? "Served" : status === "accepted" ? "Accepted" : status === "rejected" ? "Rejected" : "Submitted";
  const description = cleanDescription(
    [
      filingCode && filingDescription && filingCode !== filingDescription ? `${filingCode}: ${filingDescription}` : (filingDescription ?? filingCode),
      `(${statusWord})`,
      reason ? `Rejection reason: ${reason}` : null,
      comments ? `Comments: ${comments}` : null,
    ]
      .filter(Boolean)
      .join(" "),
  );
  const documents = status === "rejected" ? [] : documentsFrom(doc, fields, ["Served Document", "File Stamped Copy", "Attachment", "Documents"]);
  const main = documents[0] ?? null;
  const contacts = serviceContacts(fieldText(text, fields.get("Service Contacts"), true) ?? fieldText(text, fields.get("Service List"), true));
  const submitted = isoDate(fieldText(text, fields.get("Date/Time Submitted")) ?? fieldText(text, fields.get("Submitted")));
  const decided = isoDate(fieldText(text, fields.get("Date/Time Accepted")) ?? fieldText(text, fields.get("Date/Time Rejected")));
  const filedBy = fieldText(text, fields.get("Filed By")) ?? fieldText(text, fields.get("Sending Parties")) ?? fieldText(text, fields.get("Authorized By"));
  const caseName =
    collapse(fieldText(text, fields.get("Case Style")) ?? fieldText(text, fields.get("Case Name")) ?? fromSubject?.caseStyle ?? "") || "Unknown Case Title";

  return {
    court_id: stateCourtId(state) ?? null,
    appellate: false,
    acms: false,
    contains_attachments: documents.length > 1,
    email_recipients: contacts,
    dockets: [
      {
        docket_number: caseNumber,
        federal_dn_office_code: null,
        federal_dn_case_type: null,
        federal_dn_judge_initials_assigned: null,
        federal_dn_judge_initials_referred: null,
        federal_defendant_number: null,
        docket_number_full: caseNumber,
        docket_court_id: null,
        case_name: caseName,
        date_filed: null,
        docket_entries: [
          {
            date_filed: status === "accepted" ? (decided ?? submitted) : submitted,
            description,
            short_description: filingDescription ?? filingCode,
            document_number: null,
            document_url: main?.url ?? null,
            ...NO_PACER_IDS,
            filed_by: filedBy,
            entered_on: decided,
            sealed: false,
            documents,
            envelope_number: envelope,
            filing_status: status,
          },
        ],
      },
    ],
    message_id: ctx.mail?.messageId ?? null,
    subject: ctx.mail?.subject ?? ctx.subject,
    sent_at: ctx.mail?.date ? ctx.mail.date.toISOString() : null,
    court_host: null,
    notice_type: provider.provider === "fsx" ? "FILE_AND_SERVEXPRESS" : "TYLER_EFILE",
    court_name: court,
  };
}
