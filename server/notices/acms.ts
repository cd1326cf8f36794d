// Appellate notices from ACMS, the newer appellate case management system
// (sender ACMS@caN.fedcourts.us, a layout built from divs, links to
// caN-showdoc.azurewebsites.us).
//
//   Notice of Docket Activity
//   The following transaction was entered on 07/25/2025 12:52:03 PM PDT and filed on 07/25/2025
//   Case Name: Multiple Energy Technologies, LLC v. Hologenix, LLC
//   Case Number: 24-2883                      (link showdoc/24-2883)
//   Docket Text: NOTICE OF APPEARANCE by … [Entered: 07/25/2025 12:52 PM]
//   Document: Brief                           (link showdoc/NDA/<GUID>)
//   Notice will be electronically mailed to: User Name ; user@example.test
//
// The document number is only in the subject: "… 24-2883 - 030 - Notice of Appearance".
import { caseNameFrom, cleanDescription, docketNumberFields, filedByFromDescription, type NoticeContext, transactionDates, valueText } from "./common";
import { resolveCourt } from "./court";
import { looksSealed } from "./documents";
import { firstDocketNumber, parseAppellateDocketNumber } from "./docket-number";
import { type LabelHit, linksIn, nextSectionStart, scanLabels, sectionHeadings } from "./labels";
import { parseCourtLink } from "./links";
import { parseRecipients } from "./recipients";
import { acmsSubjectParts } from "./subject";
import type { TextDoc } from "./text-doc";
import { collapse } from "./text-utils";
import type { NoticeDocument, ParsedNotice } from "./types";

const LABELS = ["Case Name", "Case Number", "Docket Text", "Documents", "Document"] as const;

/** True when the message carries ACMS markers (showdoc links or an ACMS/fedcourts.us sender). */
export function looksLikeAcms(doc: TextDoc, senders: readonly string[]): boolean {
  if (doc.links.some((l) => /-showdoc\.azurewebsites\./i.test(l.href))) return true;
  return senders.some((s) => /^acms@|\.fedcourts\.us$/i.test(s));
}

/** Parse an ACMS notice; null when the text holds no ACMS docket block. */
export function parseAcms(doc: TextDoc, ctx: NoticeContext): ParsedNotice | null {
  const text = doc.text;
  const headingAt = text.search(/Notice of Docket Activity/i);
  const labels = scanLabels(text, LABELS).filter((l) => headingAt < 0 || l.start > headingAt);
  const caseNumber = labels.find((l) => l.label === "Case Number");
  if (!caseNumber) return null;
  const caseName = labels.find((l) => l.label === "Case Name");
  const firstCase = caseName && caseName.start < caseNumber.start ? caseName : caseNumber;
  const headings = sectionHeadings(text, firstCase.start);
  const dates = transactionDates(text, headingAt >= 0 ? headingAt : 0, firstCase.start);

  const parts = parseAppellateDocketNumber(firstDocketNumber(valueText(doc, caseNumber)));
  if (!parts) return null;
  const docketText: LabelHit | undefined = labels.find((l) => l.label === "Docket Text");
  const description = docketText
    ? cleanDescription(text.slice(docketText.valueStart, nextSectionStart(headings, docketText.valueStart, docketText.valueEnd)))
    : null;

  const documents: NoticeDocument[] = [];
  for (const hit of labels.filter((l) => l.label === "Document" || l.label === "Documents")) {
    const end = nextSectionStart(headings, hit.valueStart, hit.valueEnd);
    for (const link of linksIn(doc, hit.valueStart, end)) {
      const parsed = parseCourtLink(link.href);
      if (parsed.kind !== "acms_document" && parsed.kind !== "document") continue;
      documents.push({ number: documents.length, description: collapse(link.text) || null, url: parsed.url, pacer_doc_id: null });
    }
  }
  const main = documents[0] ? parseCourtLink(documents[0].url ?? "") : null;
  const subject = acmsSubjectParts(ctx.subject, parts.docket_number);
  const court = resolveCourt(doc.links, ctx.mail, text.slice(Math.max(0, (headingAt >= 0 ? headingAt : firstCase.start) - 800), firstCase.start));

  return {
    court_id: court.court_id,
    appellate: true,
    acms: true,
    contains_attachments: documents.length > 1,
    email_recipients: parseRecipients(text, headings, () => text.length),
    dockets: [
      {
        ...docketNumberFields(parts),
        case_name: caseNameFrom(valueText(doc, caseName)).clean,
        date_filed: null,
        docket_entries: [
          {
            date_filed: dates.filed,
            description,
            short_description: subject.description,
            document_number: subject.documentNumber,
            document_url: main?.url ?? null,
            pacer_doc_id: null,
            pacer_case_id: null,
            pacer_seq_no: null,
            pacer_magic_num: main?.pacer_magic_num ?? null,
            filed_by: filedByFromDescription(description),
            entered_on: dates.entered,
            sealed: looksSealed(
              description,
              documents.map((d) => d.description ?? ""),
            ),
            documents,
          },
        ],
      },
    ],
    message_id: ctx.mail?.messageId ?? null,
    subject: ctx.mail?.subject ?? ctx.subject,
    sent_at: ctx.mail?.date ? ctx.mail.date.toISOString() : null,
    court_host: court.court_host,
    notice_type: "ACMS",
  };
}
