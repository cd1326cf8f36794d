// "The following document(s) are associated with this transaction:" lists and
// the sealed-document signals.
import type { NoticeDocument } from "./types";
import { collapse } from "./text-utils";

const DESCRIPTION_LINE = /(?:^|\n)[ \t]{0,20}Document description[ \t]{0,20}:([^\n]{0,2000})/gi;

/**
 * Document descriptions in the order listed, grouped per transaction: a group
 * starts at each "Main Document" (multi-docket notices repeat the list once
 * per docket).
 */
export function associatedDocumentGroups(text: string, from: number): string[][] {
  const groups: string[][] = [];
  const region = text.slice(from);
  for (const m of region.matchAll(DESCRIPTION_LINE)) {
    const description = collapse(m[1] ?? "");
    const isMain = /^main document$/i.test(description);
    if (isMain || groups.length === 0) groups.push([]);
    groups[groups.length - 1]?.push(description);
    if (groups.length > 1000) break;
  }
  return groups;
}

/** Documents of one entry: the main document gets the entry's link, attachments are numbered in order. */
export function documentsFromGroup(group: readonly string[] | undefined, main: { url: string | null; pacer_doc_id: string | null }): NoticeDocument[] {
  if (!group || group.length === 0) {
    return main.url ? [{ number: 0, description: null, url: main.url, pacer_doc_id: main.pacer_doc_id }] : [];
  }
  return group.map((description, i) => ({
    number: i,
    description: description || null,
    url: i === 0 ? main.url : null,
    pacer_doc_id: i === 0 ? main.pacer_doc_id : null,
  }));
}

/**
 * Whether the notice marks the document as sealed or restricted. Courts
 * print "SEALED" in capitals at the start or in the event name
 * ("SEALED MOTION", "***SEALED***"), say the document was filed or entered
 * under seal, or call it restricted. A motion *to* seal or to file under seal
 * is not itself sealed, so those phrasings do not count.
 */
export function looksSealed(description: string | null, documentDescriptions: readonly string[] = []): boolean {
  const texts = [description ?? "", ...documentDescriptions];
  return texts.some(
    (t) =>
      /(?:^|[^A-Za-z])SEALED(?![A-Za-z])/.test(t) ||
      /\b(?:filed|entered|maintained|kept|placed|docketed|lodged)\s+under\s+seal\b/i.test(t) ||
      /(?<!\b(?:to|for)\s(?:file|lodge)\s(?:a\s)?)\b(?:restricted|sealed)\s+(?:document|entry|filing)\b/i.test(t) ||
      /\b(?:document|entry) (?:is|has been) (?:sealed|restricted)\b/i.test(t) ||
      /^\s*\(?\s*(?:court only|sealed)\b/i.test(t),
  );
}
