// District and bankruptcy "Notice of Electronic Filing" (CM/ECF), in HTML or
// plain text, for one docket or several (a filing docketed in associated or
// member cases), also when a person forwarded it.
//
// Layout (one block per docket; bankruptcy multi-docket notices share one
// docket text after the last block):
//   The following transaction was entered by X on 8/11/2021 at 4:07 PM and filed on 8/11/2021
//   Case Name: Autrey v. Harrigan Lumber Co., Inc. et al
//   Case Number: 1:20-cv-00572-WS-MU          (link to DktRpt.pl?<caseid>)
//   Filer: Ethan Autrey
//   Document Number: 24                       (link to /doc1/<id>?caseid=&de_seq_num=&magic_num=)
//   Docket Text: NOTICE of Settlement …
//   1:20-cv-00572-WS-MU Notice has been electronically mailed to: …
//   The following document(s) are associated with this transaction: …
import {
  caseNameFrom,
  cleanDescription,
  docketNumberFields,
  filedByFromDescription,
  filerRow,
  type NoticeContext,
  transactionDates,
  valueText,
} from "./common";
import { resolveCourt } from "./court";
import { firstDocketNumber, parseDocketNumber, type DocketNumberParts } from "./docket-number";
import { associatedDocumentGroups, documentsFromGroup, looksSealed } from "./documents";
import { type LabelHit, linksIn, scanLabels, sectionHeadings } from "./labels";
import { MAX_DOCKETS } from "./limits";
import { type CourtLink, parseCourtLink } from "./links";
import { parseRecipients } from "./recipients";
import { nefShortDescription, type SubjectCase } from "./subject";
import type { TextDoc } from "./text-doc";
import type { ParsedDocket, ParsedNotice } from "./types";

// Rows such as "WARNING: CASE CLOSED" or "Chapter: 11" only end the value before them.
const LABELS = [
  "Case Name",
  "Case Number",
  "Filer",
  "Document Number",
  "Docket Text",
  "WARNING",
  "Chapter",
  "Judge",
  "Case Judge",
  "Presiding Judge",
  "Case Type",
  "Nature of Suit",
  "Office",
  "Creditor Name",
  "Claim Number",
] as const;

interface Block {
  caseName?: LabelHit;
  caseNumber?: LabelHit;
  filer?: LabelHit;
  documentNumber?: LabelHit;
  docketText?: LabelHit;
}

function firstLink(doc: TextDoc, hit: LabelHit | undefined, kinds: readonly CourtLink["kind"][]): CourtLink | null {
  if (!hit) return null;
  for (const link of linksIn(doc, hit.valueStart, hit.valueEnd)) {
    const parsed = parseCourtLink(link.href);
    if (kinds.includes(parsed.kind)) return parsed;
  }
  return null;
}

function documentNumber(text: string): string | null {
  const shown = text.split(/https?:\/\/|Copy the URL/i, 1)[0] ?? "";
  const m = /(?:^|[^\d/:-])(\d{1,7})(?![\d/:-])/.exec(shown);
  return m?.[1] ? String(Number(m[1])) : null;
}

function groupBlocks(labels: readonly LabelHit[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  for (const hit of labels) {
    const key =
      hit.label === "Case Name"
        ? "caseName"
        : hit.label === "Case Number"
          ? "caseNumber"
          : hit.label === "Filer"
            ? "filer"
            : hit.label === "Document Number"
              ? "documentNumber"
              : hit.label === "Docket Text"
                ? "docketText"
                : null;
    if (!key) continue;
    const startsBlock = key === "caseName" || (key === "caseNumber" && (!current || current.caseNumber));
    if (startsBlock || !current) {
      current = {};
      blocks.push(current);
      if (blocks.length > MAX_DOCKETS) break;
    }
    if (!current[key]) current[key] = hit;
  }
  return blocks;
}

/** Parse an NEF; null when the text holds no NEF docket block. */
export function parseNef(doc: TextDoc, ctx: NoticeContext): ParsedNotice | null {
  const text = doc.text;
  const labels = scanLabels(text, LABELS);
  const firstCase = labels.find((l) => l.label === "Case Name" || l.label === "Case Number");
  if (!firstCase) return null;
  // Claims-register notices share the layout but are not docket notices.
  if (labels.some((l) => l.label === "Claim Number" || l.label === "Creditor Name")) return null;

  const headingAt = text.search(/Notice of Electronic Filing/i);
  const noticeStart = headingAt >= 0 && headingAt < firstCase.start ? headingAt : firstCase.start;
  const headings = sectionHeadings(text, firstCase.start);
  const dates = transactionDates(text, Math.max(0, noticeStart - 200), firstCase.start);

  // Docket blocks end where the first section (recipients, document list)
  // starts; a "Case Number:" line inside the document list is not a block.
  const blocksEnd = headings[0]?.start ?? text.length;
  const blockLabels = labels.filter((l) => l.start >= firstCase.start && l.start < blocksEnd);
  // A docket text runs to the next docket block (or the first section).
  let nextBlockStart = blocksEnd;
  for (let i = blockLabels.length - 1; i >= 0; i--) {
    const hit = blockLabels[i];
    if (!hit) continue;
    if (hit.label === "Docket Text") hit.valueEnd = Math.min(nextBlockStart, blocksEnd);
    if (hit.label === "Case Name" || hit.label === "Case Number") nextBlockStart = hit.start;
  }
  const blocks = groupBlocks(blockLabels).filter((b) => b.caseNumber);
  const dockets: { parts: DocketNumberParts; rawName: string; cleanName: string; block: Block }[] = [];
  for (const block of blocks) {
    const dn = firstDocketNumber(valueText(doc, block.caseNumber));
    const parts = dn ? parseDocketNumber(dn) : null;
    if (!parts) continue;
    const name = caseNameFrom(valueText(doc, block.caseName));
    dockets.push({ parts, rawName: name.raw, cleanName: name.clean, block });
  }
  if (dockets.length === 0) return null;

  const texts = dockets.map((d) => (d.block.docketText ? cleanDescription(valueText(doc, d.block.docketText)) : null));
  // Bankruptcy multi-docket notices print one docket text for all blocks.
  const shared = texts.find((t) => t !== null) ?? null;

  const cases: SubjectCase[] = dockets.map((d) => ({ docketNumber: d.parts.docket_number, rawName: d.rawName, cleanName: d.cleanName }));
  const shortDescription = nefShortDescription(ctx.subject, cases);
  const groups = associatedDocumentGroups(text, firstCase.start);

  const parsedDockets: ParsedDocket[] = dockets.map((d, i) => {
    const docLink = firstLink(doc, d.block.documentNumber, ["document"]);
    const docketLink = firstLink(doc, d.block.caseNumber, ["docket", "document"]);
    const description = texts[i] ?? shared;
    const group = groups.length === dockets.length ? groups[i] : groups[0];
    const documents = documentsFromGroup(group, { url: docLink?.url ?? null, pacer_doc_id: docLink?.pacer_doc_id ?? null });
    const filer = filerRow(valueText(doc, d.block.filer));
    return {
      ...docketNumberFields(d.parts),
      case_name: d.cleanName,
      date_filed: null,
      docket_entries: [
        {
          date_filed: dates.filed,
          description,
          short_description: shortDescription,
          document_number: documentNumber(valueText(doc, d.block.documentNumber)),
          document_url: docLink?.url ?? null,
          pacer_doc_id: docLink?.pacer_doc_id ?? null,
          pacer_case_id: docLink?.pacer_case_id ?? docketLink?.pacer_case_id ?? null,
          pacer_seq_no: docLink?.pacer_seq_no ?? null,
          pacer_magic_num: docLink?.pacer_magic_num ?? null,
          filed_by: filer ?? filedByFromDescription(description),
          entered_on: dates.entered,
          sealed: looksSealed(description, group ?? []),
          documents,
        },
      ],
    };
  });

  const court = resolveCourt(doc.links, ctx.mail, text.slice(Math.max(0, noticeStart - 800), firstCase.start));
  const descriptions = parsedDockets.map((d) => d.docket_entries[0]?.description ?? "");
  return {
    court_id: court.court_id,
    appellate: false,
    acms: false,
    contains_attachments: groups.flat().length > 1 || descriptions.some((d) => /\(Attachments:/i.test(d)),
    email_recipients: parseRecipients(text, headings, () => text.length),
    dockets: parsedDockets,
    message_id: ctx.mail?.messageId ?? null,
    subject: ctx.mail?.subject ?? ctx.subject,
    sent_at: ctx.mail?.date ? ctx.mail.date.toISOString() : null,
    court_host: court.court_host,
    notice_type: "NEF",
  };
}
