import { type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { CaseTrackingTable, DB } from "../db/schema";
import { enqueue } from "../queue/queue";
import { priceOf } from "../billing/prices";
import { HttpError, isUniqueViolation } from "../lib/errors";
import { newId } from "../lib/ids";
import { scheduleMissedNoticeCheck } from "./missed-notices";
import { message } from "../lib/messages";
import { TRACKING_FROM, type TrackingAction, type TrackingState, type TrackingView } from "../../app/common/case-tracking";

// ECFX Track (spec §4 case tracking, decision 054): subscribe (monthly fee and a possible cost per
// document), stop (no further cost, no renewal), resume (no backfill of the stopped time),
// unsubscribe. Each paid stretch is a period row: what billing reads, and what decides whether a
// court entry is received (only entries published inside a period are).

/** Where each action leads; where it may start from is shared with the console. */
const TARGET: Record<TrackingAction, CaseTrackingTable["state"]> = { subscribe: "TRACKED", stop: "STOPPED", resume: "TRACKED", unsubscribe: "UNSUBSCRIBED" };

const stateOf = (row: { state: string } | undefined): TrackingState =>
  row?.state === "TRACKED" ? "TRACKED" : row?.state === "STOPPED" ? "STOPPED" : "NOT_TRACKED";

/** The prices of ECFX Track for a new subscription or a resume: the installation's price list (decisions 054, 111). */
async function currentPrices(ctx: ServerContext) {
  const price = await priceOf(ctx.database.db, ctx.config, "ECFX_TRACK");
  return { monthly_fee_cents: price.amount_cents, per_document_cents: price.per_document_cents, currency: "USD" as const };
}

export async function trackingOf(ctx: ServerContext, firmId: number, caseId: string): Promise<TrackingView> {
  const db = ctx.database.db;
  const [row, periods] = await Promise.all([
    db.selectFrom("case_tracking").selectAll().where("firm_id", "=", firmId).where("case_id", "=", caseId).executeTakeFirst(),
    db.selectFrom("case_tracking_period").selectAll().where("firm_id", "=", firmId).where("case_id", "=", caseId).orderBy("started_at").orderBy("id").execute(),
  ]);
  const state = stateOf(row);
  const today = await currentPrices(ctx);
  const prices = state === "NOT_TRACKED" || !row ? today : { ...today, ...pricesOf(row) };
  return {
    state,
    subscribed_at: state === "NOT_TRACKED" ? null : (row?.subscribed_at ?? null),
    stopped_at: state === "STOPPED" ? (row?.stopped_at ?? null) : null,
    resumed_at: state === "NOT_TRACKED" ? null : (row?.resumed_at ?? null),
    ...prices,
    periods: periods.map((p) => ({
      started_at: Number(p.started_at),
      ended_at: p.ended_at === null ? null : Number(p.ended_at),
      monthly_fee_cents: p.monthly_fee_cents,
      per_document_cents: p.per_document_cents,
      documents: p.documents,
      document_cost_cents: p.documents * p.per_document_cents,
      currency: p.currency,
    })),
  };
}

const pricesOf = (row: { monthly_fee_cents: number; per_document_cents: number }) => ({
  monthly_fee_cents: row.monthly_fee_cents,
  per_document_cents: row.per_document_cents,
});

const impossible = (action: TrackingAction, state: TrackingState) =>
  new HttpError(
    409,
    message("errors:trackingTransition", { action: message(`errors:trackingActions.${action}`), state: message(`errors:trackingStates.${state}`) }),
  );

/** Queues the case's first poll unless one is already waiting, in the caller's transaction. */
async function schedulePoll(trx: Kysely<DB>, firmId: number, caseId: string, runAt: number): Promise<void> {
  const waiting = await trx.selectFrom("job").select("id").where("kind", "=", "track-case").where("ref_id", "=", caseId).executeTakeFirst();
  if (!waiting) await enqueue(trx, { kind: "track-case", firmId, refId: caseId, runAt });
}

/**
 * Moves a case's tracking by one of the four actions, or refuses with 409 and a sentence saying
 * why. A paid period opens on subscribe and resume and closes on stop and unsubscribe, in the
 * same transaction as the state.
 */
export async function changeTracking(ctx: ServerContext, firmId: number, caseId: string, action: TrackingAction): Promise<TrackingView> {
  const now = ctx.clock.now();
  const prices = await currentPrices(ctx);
  try {
    await ctx.database.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom("case_tracking").selectAll().where("firm_id", "=", firmId).where("case_id", "=", caseId).executeTakeFirst();
      const state = stateOf(row);
      if (!TRACKING_FROM[action].includes(state)) throw impossible(action, state);
      const changes = {
        state: TARGET[action],
        updated_at: now,
        ...(action === "subscribe" ? { subscribed_at: now, stopped_at: null, resumed_at: null, ...prices } : {}),
        ...(action === "stop" ? { stopped_at: now } : {}),
        ...(action === "resume" ? { resumed_at: now, stopped_at: null, ...prices } : {}),
      };
      if (!row) {
        await trx
          .insertInto("case_tracking")
          .values({ case_id: caseId, firm_id: firmId, subscribed_at: now, stopped_at: null, resumed_at: null, ...prices, ...changes })
          .execute();
      } else {
        // Only from the state read: a change made meanwhile by another request makes this one 409.
        const updated = await trx
          .updateTable("case_tracking")
          .set(changes)
          .where("case_id", "=", caseId)
          .where("firm_id", "=", firmId)
          .where("state", "=", row.state)
          .where("updated_at", "=", row.updated_at)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw impossible(action, state);
      }
      if (action === "stop" || action === "unsubscribe") {
        await trx
          .updateTable("case_tracking_period")
          .set({ ended_at: now })
          .where("firm_id", "=", firmId)
          .where("case_id", "=", caseId)
          .where("ended_at", "is", null)
          .execute();
      } else {
        await trx
          .insertInto("case_tracking_period")
          .values({ id: newId(), firm_id: firmId, case_id: caseId, started_at: now, ended_at: null, ...prices, documents: 0 })
          .execute();
        await schedulePoll(trx, firmId, caseId, now);
        await scheduleMissedNoticeCheck(trx, firmId, now);
      }
    });
  } catch (error) {
    // Two first subscriptions at once: the second finds the row the first inserted.
    if (isUniqueViolation(error)) throw impossible(action, "TRACKED");
    throw error;
  }
  return trackingOf(ctx, firmId, caseId);
}

/** The open period a court entry published at this time belongs to, if the case was tracked then. */
export async function periodAt(db: Kysely<DB>, firmId: number, caseId: string, publishedAt: number): Promise<string | undefined> {
  const period = await db
    .selectFrom("case_tracking_period")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("case_id", "=", caseId)
    .where("started_at", "<=", publishedAt)
    .where((eb) => eb.or([eb("ended_at", "is", null), eb("ended_at", ">", publishedAt)]))
    .executeTakeFirst();
  return period?.id;
}

/** One more document received in a period: its per-document cost is billed. */
export async function countTrackedDocument(trx: Kysely<DB>, periodId: string): Promise<void> {
  await trx
    .updateTable("case_tracking_period")
    .set({ documents: sql`documents + 1` })
    .where("id", "=", periodId)
    .execute();
}

/** Whether the case is tracked now (not stopped, not unsubscribed). */
export async function isTracked(db: Kysely<DB>, firmId: number, caseId: string): Promise<boolean> {
  const row = await db.selectFrom("case_tracking").select("state").where("firm_id", "=", firmId).where("case_id", "=", caseId).executeTakeFirst();
  return stateOf(row) === "TRACKED";
}
