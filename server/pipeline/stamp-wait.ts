import type { Kysely } from "kysely";
import type { DB, DocumentProcessingTable } from "../db/schema";

// Waiting for the court's stamp (spec §3 DocumentProcessing): a document fetched before the
// court stamped it is fetched again later by a delayed job, never by a worker that sleeps; it is
// released unstamped once the firm's minutes are up — the minutes before an unstamped release
// when that is on, the max minutes wait for stamp otherwise.

/** How often an unstamped document is fetched again while the wait lasts. */
export const STAMP_RECHECK_MS = 60_000;

type StampSettings = Pick<
  DocumentProcessingTable,
  "wait_for_stamp" | "max_minutes_wait_for_stamp" | "release_unstamped_while_waiting" | "minutes_wait_before_unstamped_release"
>;

/** The document processing settings of the jurisdiction preference that applied to an item, if any. */
export async function documentProcessingOf(db: Kysely<DB>, itemId: string): Promise<StampSettings | undefined> {
  return db
    .selectFrom("inbox_item as i")
    .innerJoin("jurisdiction_preference as p", "p.id", "i.jurisdiction_preference_id")
    .innerJoin("document_processing as d", "d.id", "p.document_processing_id")
    .select(["d.wait_for_stamp", "d.max_minutes_wait_for_stamp", "d.release_unstamped_while_waiting", "d.minutes_wait_before_unstamped_release"])
    .where("i.id", "=", itemId)
    .whereRef("d.firm_id", "=", "i.firm_id")
    .executeTakeFirst();
}

export type StampDecision = { kind: "keep" } | { kind: "wait"; until: number };

/** Whether an unstamped copy is kept now, or the document is fetched again at `until`. */
export function stampDecision(settings: StampSettings | undefined, startedAt: number, now: number): StampDecision {
  if (!settings?.wait_for_stamp) return { kind: "keep" };
  const early = settings.release_unstamped_while_waiting ? settings.minutes_wait_before_unstamped_release : null;
  const minutes = early ?? settings.max_minutes_wait_for_stamp ?? 0;
  const releaseAt = startedAt + minutes * 60_000;
  if (now >= releaseAt) return { kind: "keep" };
  return { kind: "wait", until: Math.min(now + STAMP_RECHECK_MS, releaseAt) };
}
