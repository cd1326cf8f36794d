// Appellate "Notice of Docket Activity" from classic appellate CM/ECF.
//
//   The following transaction was [entered on D at T and] filed on 08/10/2022
//   Case Name: Greene v. Secretary of State, et al
//   Case Number: 22-11299        (link …TransportRoom?servlet=DocketReportFilter.jsp&caseId=78099)
//   Document(s): Document(s)     (link /docs1/<id>?uid=<token>)
//   Docket Text: MOTION to take judicial notice … [22-11299] (ECF: …)
//   Notice will be electronically mailed to: Name, Role: a@example.test, …
//   The following document(s) are associated with this transaction:
//   Document Description: Appellant's Motion to Take Judicial Notice
import { caseNameFrom, cleanDescription, docketNumberFields, filedByFromDescription, type NoticeContext, transactionDates, valueText } from "./common";
import { resolveCourt } from "./court";
import { firstDocketNumber, parseAppellateDocketNumber } from "./docket-number";
import { associatedDocumentGroups, documentsFromGroup, looksSealed } from "./documents";
import { type LabelHit, linksIn, nextSectionStart, scanLabels, sectionHeadings } from "./labels";
import { MAX_DOCKETS } from "./limits";
import { type CourtLink, parseCourtLink } from "./links";
import { parseRecipients } from "./recipients";
import { ndaSubjectDescription } from "./subject";
import type { TextDoc } from "./text-doc";
import { collapse } from "./text-utils";
import type { ParsedDocket, ParsedNotice } from "./types";

const LABELS = ["Case Name", "Case Number", "Document(s)", "Docket Text"] as const;

function links(doc: TextDoc, hit: LabelHit | undefined): CourtLink[] {
  return hit ? linksIn(doc, hit.valueStart, hit.valueEnd).map((l) => parseCourtLink(l.href)) : [];
}

/**
 * The document description names the entry better than the subject, unless
 * it is generic ("Main Document") or a cut-down form of the subject's quoted
 * event ("motion" for "motion extend time to file brief").
 */
function appellateShortDescription(documentDescription: string | null, subjectDescription: string | null): string | null {
  const doc = documentDescription ? collapse(documentDescription.replace(/_/g, " ")) : "";
  if (!doc || /^main document$/i.test(doc)) return subjectDescription ?? (doc || null);
  if (subjectDescription && subjectDescription.length > doc.length && subjectDescription.toLowerCase().startsWith(doc.toLowerCase())) {
    return subjectDescription;
  }
  return doc;
}

/** Parse a classic NDA; null when the text holds no NDA docket block. */
export function parseNda(doc: TextDoc, ctx: NoticeContext): ParsedNotice | null {
  const text = doc.text;
  const headingAt = text.search(/Notice of Docket Activity/i);
  const labels = scanLabels(text, LABELS).filter((l) => headingAt < 0 || l.start > headingAt);
  const firstCase = labels.find((l) => l.label === "Case Name" || l.label === "Case Number");
  if (!firstCase) return null;
  const noticeStart = headingAt >= 0 ? headingAt : firstCase.start;
  const headings = sectionHeadings(text, firstCase.start);
  const dates = transactionDates(text, noticeStart, firstCase.start);

  const blocks: Record<string, LabelHit>[] = [];
  let current: Record<string, LabelHit> | null = null;
  const blocksEnd = headings[0]?.start ?? text.length;
  for (const hit of labels.filter((l) => l.start < blocksEnd)) {
    if (hit.label === "Docket Text") hit.valueEnd = nextSectionStart(headings, hit.valueStart, hit.valueEnd);
    if (hit.label === "Case Name" || !current || current[hit.label]) {
      current = {};
      blocks.push(current);
      if (blocks.length > MAX_DOCKETS) break;
    }
    current[hit.label] = hit;
  }

  const groups = associatedDocumentGroups(text, firstCase.start);
  const docDescriptions = groups.flat();
  const shortDescription = appellateShortDescription(docDescriptions[0] ?? null, ndaSubjectDescription(ctx.subject));
  const dockets: ParsedDocket[] = [];
  const docketTexts = blocks.map((b) => (b["Docket Text"] ? cleanDescription(valueText(doc, b["Docket Text"])) : null));
  const shared = docketTexts.find((t) => t !== null) ?? null;
  blocks.forEach((block, i) => {
    const dn = firstDocketNumber(valueText(doc, block["Case Number"]));
    const parts = parseAppellateDocketNumber(dn);
    if (!parts) return;
    const name = caseNameFrom(valueText(doc, block["Case Name"]));
    const docLink = links(doc, block["Document(s)"]).find((l) => l.kind === "document") ?? null;
    const caseLink = links(doc, block["Case Number"]).find((l) => l.pacer_case_id) ?? null;
    const description = docketTexts[i] ?? shared;
    dockets.push({
      ...docketNumberFields(parts),
      case_name: name.clean,
      date_filed: null,
      docket_entries: [
        {
          date_filed: dates.filed,
          description,
          short_description: shortDescription,
          document_number: null,
          document_url: docLink?.url ?? null,
          pacer_doc_id: docLink?.pacer_doc_id ?? null,
          pacer_case_id: caseLink?.pacer_case_id ?? docLink?.pacer_case_id ?? null,
          pacer_seq_no: null,
          pacer_magic_num: docLink?.pacer_magic_num ?? null,
          filed_by: filedByFromDescription(description),
          entered_on: dates.entered,
          sealed: looksSealed(description, docDescriptions),
          documents: documentsFromGroup(groups[0], { url: docLink?.url ?? null, pacer_doc_id: docLink?.pacer_doc_id ?? null }),
        },
      ],
    });
  });
  if (dockets.length === 0) return null;

  const court = resolveCourt(doc.links, ctx.mail, text.slice(Math.max(0, noticeStart - 800), firstCase.start));
  return {
    court_id: court.court_id,
    appellate: true,
    acms: false,
    contains_attachments: docDescriptions.length > 1,
    email_recipients: parseRecipients(text, headings, () => text.length),
    dockets,
    message_id: ctx.mail?.messageId ?? null,
    subject: ctx.mail?.subject ?? ctx.subject,
    sent_at: ctx.mail?.date ? ctx.mail.date.toISOString() : null,
    court_host: court.court_host,
    notice_type: "NDA",
  };
}
