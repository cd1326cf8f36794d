import type { ServerContext } from "../context";
import { featureEnabled } from "../firm/entitled-features";
import { findFirm } from "../firm/firm-repository";
import { enqueue } from "../queue/queue";
import { caseCourt } from "./case-court";
import { receiveCaseEntry, unreceivedEntries } from "./case-docket-entries";
import { countTrackedDocument, isTracked, periodAt } from "./case-tracking";

// The "track-case" job: one per tracked case, polling its court's docket feed every
// ECFX_TRACK_POLL_MINUTES. A stopped or unsubscribed case ends its chain (resume starts it again);
// a firm without ECFX_TRACK receives nothing, but its chain keeps its place, so entitling the firm
// again brings tracking back without a new subscription.

export const MAX_TRACK_ATTEMPTS = 3;

/** The next poll of the case, after the configured pause; `current` is the job asking, about to end. */
export async function scheduleNextPoll(ctx: ServerContext, firmId: number, caseId: string, current: string): Promise<void> {
  const db = ctx.database.db;
  if (!(await isTracked(db, firmId, caseId))) return;
  // A poll run again after a crash finds the next one queued already: one chain per case.
  const queued = await db
    .selectFrom("job")
    .select("id")
    .where("kind", "=", "track-case")
    .where("ref_id", "=", caseId)
    .where("id", "!=", current)
    .executeTakeFirst();
  if (queued) return;
  await enqueue(ctx.database.db, { kind: "track-case", firmId, refId: caseId, runAt: ctx.clock.now() + ctx.config.ECFX_TRACK_POLL_MINUTES * 60_000 });
}

/**
 * Reads the feed of the case's court and receives each new entry of the case that was published
 * while it was tracked: an entry of a stopped stretch is never received (no backfill), and one
 * already received is not received again. Each received entry counts one document in its period.
 */
export async function pollTrackedCase(ctx: ServerContext, firmId: number, caseId: string, current: string): Promise<void> {
  const db = ctx.database.db;
  if (!(await isTracked(db, firmId, caseId))) return;
  const firm = await findFirm(ctx.database, firmId);
  const court = await caseCourt(db, firmId, caseId);
  if (!firm || !court) return;
  if (featureEnabled(firm, "ECFX_TRACK") && court.courtId) {
    const entries = await unreceivedEntries(ctx, firmId, { ...court, courtId: court.courtId });
    for (const entry of entries) {
      const periodId = await periodAt(db, firmId, caseId, entry.publishedAt);
      if (!periodId) continue;
      await db.transaction().execute(async (trx) => {
        await receiveCaseEntry(trx, entry, { firmId, caseId, source: "TRACK", periodId, now: ctx.clock.now() });
        await countTrackedDocument(trx, periodId);
      });
    }
  }
  await scheduleNextPoll(ctx, firmId, caseId, current);
}
