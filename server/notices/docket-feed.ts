import { parseFeed } from "htmlparser2";
import { courtIdFromHost, findCourt } from "../jurisdictions/federal-courts";
import { parseAppellateDocketNumber, parseDocketNumber } from "./docket-number";
import type { ParsedMessage } from "./index";
import type { ParsedDocketEntry, ParsedNotice } from "./types";

// A court's "recent entries" RSS 2.0 feed (CM/ECF rss_outside.pl, the appellate courts' feeds):
// one <item> per docket entry, titled "<docket number> <case name>", described as
// "[Short description] (<a href='…/doc1/…'>N</a>)". ECFX Track reads it for the cases a firm
// tracks (decision 054). Each entry is kept as it came, wrapped into a one-entry feed, so its item
// can be read again like any received message.

export interface DocketFeedEntry {
  /** The entry's guid: the same entry keeps it in every later copy of the feed. */
  key: string;
  courtId: string | null;
  docketNumber: string;
  caseName: string;
  shortDescription: string;
  documentNumber: string | null;
  documentUrl: string | null;
  publishedAt: number;
  /** The entry as a feed of its own, what an inbox item keeps as its raw content. */
  raw: string;
}

const ITEM = /<item\b[\s\S]*?<\/item>/gi;
const CHANNEL_LINK = /<channel\b[\s\S]*?<link>\s*([^<\s]+)\s*<\/link>/i;
const SHORT_DESCRIPTIONS = /\[[^\]]*\]/g;
const LINK = /<a\s[^>]*href\s*=\s*["']([^"']+)["'][^>]*>([^<]*)<\/a>/i;

/** "127122264358" → "127022264358": the 4th digit marks a free look, not the document. */
const documentIdOf = (url: string): string | null => /\/docs?1\/(\d+)/.exec(url)?.[1]?.replace(/^(\d{3})\d/, "$10") ?? null;

const feedOf = (channelLink: string, chunks: readonly string[]) =>
  `<rss version="2.0"><channel><link>${channelLink}</link>\n${chunks.join("\n")}\n</channel></rss>\n`;

function entryOf(chunk: string, channelLink: string): DocketFeedEntry | null {
  const item = parseFeed(feedOf(channelLink, [chunk]))?.items[0];
  const title = (item?.title ?? "").trim().replace(/\s+/g, " ");
  const [number = "", ...name] = title.split(" ");
  const published = item?.pubDate?.getTime();
  if (!item?.id || !number || published === undefined || Number.isNaN(published)) return null;
  const description = item.description ?? "";
  const link = LINK.exec(description);
  return {
    key: item.id,
    courtId: courtIdFromHost(channelLink) ?? null,
    docketNumber: number,
    caseName: name.join(" "),
    shortDescription: (description.match(SHORT_DESCRIPTIONS) ?? []).map((s) => s.slice(1, -1).trim()).join(" AND "),
    documentUrl: link?.[1] ?? null,
    documentNumber: link?.[2] && /^\d+$/.test(link[2].trim()) ? link[2].trim() : null,
    publishedAt: published,
    raw: chunk,
  };
}

/**
 * The entries of a court feed, newest first as the court lists them; unreadable entries are left
 * out. CM/ECF lists an entry of several types once per type under one guid ("[Order]", then
 * "[~Util - Set Deadlines]"): those are one entry, its descriptions joined with "AND".
 */
export function parseDocketFeed(xml: string): DocketFeedEntry[] {
  const channelLink = CHANNEL_LINK.exec(xml)?.[1] ?? "";
  const byKey = new Map<string, { entry: DocketFeedEntry; chunks: string[] }>();
  for (const chunk of xml.match(ITEM) ?? []) {
    const entry = entryOf(chunk, channelLink);
    if (!entry) continue;
    const seen = byKey.get(entry.key);
    if (!seen) {
      byKey.set(entry.key, { entry, chunks: [chunk] });
      continue;
    }
    seen.chunks.push(chunk);
    const descriptions = [seen.entry.shortDescription, entry.shortDescription].filter(Boolean);
    seen.entry.shortDescription = [...new Set(descriptions)].join(" AND ");
    if (!seen.entry.documentUrl) Object.assign(seen.entry, { documentUrl: entry.documentUrl, documentNumber: entry.documentNumber });
  }
  // The kept copy of an entry is a feed of its own, with every listing of it.
  return [...byKey.values()].map(({ entry, chunks }) => ({ ...entry, raw: feedOf(channelLink, chunks) }));
}

const docketParts = (entry: DocketFeedEntry) => {
  const appellate = findCourt(entry.courtId)?.level === "APPEALS";
  return { appellate, parts: (appellate ? parseAppellateDocketNumber : parseDocketNumber)(entry.docketNumber) };
};

/** The entry's docket number without judge initials or other suffixes ("16-10992-smb" → "16-10992"). */
export const entryDocketNumber = (entry: DocketFeedEntry): string => docketParts(entry).parts?.docket_number ?? entry.docketNumber;

/** A court's entry read as a notice of one docket, for the pipeline that matches and files it. */
export function docketEntryNotice(entry: DocketFeedEntry): ParsedMessage {
  const { appellate, parts } = docketParts(entry);
  const pacerDocId = entry.documentUrl ? documentIdOf(entry.documentUrl) : null;
  const query = entry.documentUrl ? new URL(entry.documentUrl, "https://court.invalid").searchParams : undefined;
  const docketEntry: ParsedDocketEntry = {
    date_filed: new Date(entry.publishedAt).toISOString(),
    description: entry.shortDescription,
    short_description: entry.shortDescription,
    document_number: entry.documentNumber,
    document_url: entry.documentUrl,
    pacer_doc_id: pacerDocId,
    pacer_case_id: query?.get("caseid") ?? null,
    pacer_seq_no: query?.get("de_seq_num") ?? null,
    pacer_magic_num: null,
    filed_by: null,
    entered_on: null,
    sealed: false,
    documents: entry.documentUrl ? [{ number: 0, description: entry.shortDescription || null, url: entry.documentUrl, pacer_doc_id: pacerDocId }] : [],
  };
  const notice: ParsedNotice = {
    court_id: entry.courtId,
    appellate,
    acms: false,
    contains_attachments: false,
    email_recipients: [],
    dockets: [
      {
        docket_number: parts?.docket_number ?? entry.docketNumber,
        federal_dn_office_code: parts?.federal_dn_office_code ?? null,
        federal_dn_case_type: parts?.federal_dn_case_type ?? null,
        federal_dn_judge_initials_assigned: parts?.federal_dn_judge_initials_assigned ?? null,
        federal_dn_judge_initials_referred: parts?.federal_dn_judge_initials_referred ?? null,
        federal_defendant_number: parts?.federal_defendant_number ?? null,
        case_name: entry.caseName,
        date_filed: null,
        docket_entries: [docketEntry],
        docket_number_full: entry.docketNumber,
        docket_court_id: null,
      },
    ],
    message_id: null,
    subject: [entry.docketNumber, entry.caseName, entry.shortDescription].filter(Boolean).join(" "),
    sent_at: new Date(entry.publishedAt).toISOString(),
    court_host: entry.documentUrl ? new URL(entry.documentUrl, "https://court.invalid").hostname : null,
    notice_type: "COURT_FEED",
  };
  const text = [notice.subject, entry.documentUrl].filter(Boolean).join("\n");
  return {
    parsed: { kind: "notice", notice },
    body: { text, html: null, weblinks: entry.documentUrl ? [entry.documentUrl] : [], senders: { header: [], original: [] } },
  };
}

/** The kept raw content of a tracked or retrieved entry, read again (a parser change). */
export function parseKeptDocketEntry(raw: Buffer): ParsedMessage {
  const entry = parseDocketFeed(raw.toString("utf8"))[0];
  if (entry) return docketEntryNotice(entry);
  return {
    parsed: { kind: "malformed", reason: "court docket entry could not be read" },
    body: { text: "", html: null, weblinks: [], senders: { header: [], original: [] } },
  };
}
