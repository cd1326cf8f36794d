import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { enqueue } from "../queue/queue";
import { newId } from "../lib/ids";
import { message as text } from "../lib/messages";
import { type DocketFeedEntry, docketEntryNotice } from "../notices/docket-feed";
import { storedColumns } from "../stored-mail/stored-message";
import { NOT_YET_PROCESSED } from "./receive";

/** How an entry of a court's docket feed came in: ECFX Track's polling, or a case retrieve. */
export type DocketEntrySource = "TRACK" | "RETRIEVE";

/** The source type of an item made from a court feed entry rather than an e-mail. */
export const COURT_FEED = "COURT_FEED";

export const isDocketEntrySource = (sourceType: string) => sourceType === COURT_FEED;

/**
 * A court docket entry of a known case as a New inbox item with its processing job, in the
 * caller's transaction: the pipeline then files it on that case and fetches its document like
 * any notice's. The entry is kept as it came, so the item can be processed again.
 */
export async function receiveDocketEntry(
  trx: Kysely<DB>,
  entry: DocketFeedEntry,
  target: { firmId: number; caseId: string; source: DocketEntrySource; now: number },
): Promise<string> {
  const id = newId();
  const raw = Buffer.from(entry.raw, "utf8");
  const parse = docketEntryNotice(entry);
  const subject = parse.parsed.kind === "notice" ? (parse.parsed.notice.subject ?? "") : "";
  await trx
    .insertInto("inbox_item")
    .values({
      id,
      firm_id: target.firmId,
      created_at: target.now,
      updated_at: target.now,
      status: "New",
      action_required: "NONE",
      disposition: "No Disposition",
      disposition_text: "",
      reason: "",
      source: target.source,
      source_type: COURT_FEED,
      raw_content: raw,
      raw_size: raw.length,
      message_id: null,
      sender: entry.courtId ?? "",
      recipients: "[]",
      subject: subject.slice(0, 500),
      snippet: "",
      ...storedColumns(parse),
      ...NOT_YET_PROCESSED,
      // The case is known: the pipeline files the entry there instead of matching it.
      case_id: target.caseId,
    })
    .execute();
  await enqueue(trx, { kind: "process-inbox-item", firmId: target.firmId, refId: id, runAt: target.now });
  await logEvent(trx, {
    firmId: target.firmId,
    inboxItemId: id,
    event: "received",
    detail: text("pipeline:events.receivedFromCourt", { source: target.source, court: entry.courtId ?? "?" }),
    at: target.now,
  });
  return id;
}
