import type { Kysely } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { type DocketEntrySource, receiveDocketEntry } from "../inbox/receive-docket-entry";
import { type DocketFeedEntry, entryDocketNumber, parseDocketFeed } from "../notices/docket-feed";
import { normaliseCaseNumber } from "../resources/case-number";
import type { CaseCourt } from "./case-court";

// What ECFX Track and case retrieve share: the court's feed entries of one case that the firm has
// not received yet, and receiving them, each once, as inbox items filed on that case.

/** The entries of the case's court feed for this case, oldest first, not yet received. Throws when the feed cannot be read. */
export async function unreceivedEntries(ctx: ServerContext, firmId: number, court: CaseCourt & { courtId: string }): Promise<DocketFeedEntry[]> {
  const feed = parseDocketFeed(await ctx.courts.fetchDocketFeed(court.courtId));
  const ofCase = feed.filter((e) => (e.courtId ?? court.courtId) === court.courtId && normaliseCaseNumber(entryDocketNumber(e)) === court.caseNumberNormalized);
  if (ofCase.length === 0) return [];
  const received = await ctx.database.db
    .selectFrom("case_docket_entry")
    .select("entry_key")
    .where("firm_id", "=", firmId)
    .where("case_id", "=", court.caseId)
    .where(
      "entry_key",
      "in",
      ofCase.map((e) => e.key),
    )
    .execute();
  const known = new Set(received.map((r) => r.entry_key));
  const fresh = new Map(ofCase.filter((e) => !known.has(e.key)).map((e) => [e.key, e]));
  return [...fresh.values()].sort((a, b) => a.publishedAt - b.publishedAt);
}

/**
 * Receives one entry for the case in the caller's transaction. The entry's key is the row's
 * primary key: a second poll that read the same entry fails its transaction instead of
 * receiving it twice.
 */
export async function receiveCaseEntry(
  trx: Kysely<DB>,
  entry: DocketFeedEntry,
  target: { firmId: number; caseId: string; source: DocketEntrySource; periodId: string | null; now: number },
): Promise<string> {
  const itemId = await receiveDocketEntry(trx, entry, target);
  await trx
    .insertInto("case_docket_entry")
    .values({
      firm_id: target.firmId,
      case_id: target.caseId,
      entry_key: entry.key,
      inbox_item_id: itemId,
      period_id: target.periodId,
      published_at: entry.publishedAt,
      created_at: target.now,
    })
    .execute();
  return itemId;
}
