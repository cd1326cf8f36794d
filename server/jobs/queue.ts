import { sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import type { Kysely, Selectable } from "kysely";
import { newId } from "../lib/ids";

export type JobKind =
  | "process-inbox-item"
  | "fetch-document"
  | "extract-title"
  | "apply-walls"
  | "store-inbox-item"
  | "notify-inbox-item"
  | "track-case"
  | "retrieve-case"
  | "deliver-webhook"
  | "deliver-mail"
  | "check-missed-notices";
export type Job = Selectable<DB["job"]>;

/** Adds a job; inside a transaction it commits with the rows it refers to. */
export async function enqueue(db: Kysely<DB>, job: { kind: JobKind; firmId: number; refId: string; runAt: number }): Promise<void> {
  await db
    .insertInto("job")
    .values({
      id: newId(),
      kind: job.kind,
      firm_id: job.firmId,
      ref_id: job.refId,
      run_at: job.runAt,
      attempts: 0,
      locked_until: null,
      locked_by: null,
      last_error: null,
      created_at: job.runAt,
    })
    .execute();
}

/** A job that carries on from a state change; committed with it, so no item is left without one. */
export interface NextJob {
  kind: JobKind;
  refId: string;
}

/** Queues the jobs that follow a change, in the caller's transaction. */
export async function enqueueAll(trx: Kysely<DB>, firmId: number, jobs: NextJob[], now: number): Promise<void> {
  for (const job of jobs) await enqueue(trx, { kind: job.kind, firmId, refId: job.refId, runAt: now });
}

/**
 * Takes the next due job for this worker, leased until `leaseMs` from now. On PostgreSQL the
 * row is picked with FOR UPDATE SKIP LOCKED, so several workers never take the same job; on
 * SQLite the single writer serialises the claim.
 */
export async function claimJob(ctx: ServerContext, workerId: string, leaseMs: number, db: Kysely<DB> = ctx.database.db): Promise<Job | undefined> {
  const now = ctx.clock.now();
  const lock = ctx.database.dialect === "postgres" ? sql`for update skip locked` : sql``;
  const result = await sql<Job>`
    update job set locked_until = ${now + leaseMs}, locked_by = ${workerId}, attempts = attempts + 1
    where id = (
      select id from job
      where run_at <= ${now} and (locked_until is null or locked_until < ${now})
      order by run_at, id
      limit 1 ${lock}
    )
    returning *`.execute(db);
  return result.rows[0];
}

export async function completeJob(ctx: ServerContext, job: Job, db: Kysely<DB> = ctx.database.db): Promise<void> {
  await db.deleteFrom("job").where("id", "=", job.id).where("locked_by", "=", job.locked_by).execute();
}

/**
 * Completes a job and takes the next due one in the same transaction: a busy worker asks for the
 * database's write lock once per job instead of twice (on SQLite, where processes take turns at
 * one writer, every turn asked for is one more to wait for).
 */
export async function completeAndClaimNext(ctx: ServerContext, job: Job, workerId: string, leaseMs: number): Promise<Job | undefined> {
  return ctx.database.db.transaction().execute(async (trx) => {
    await completeJob(ctx, job, trx);
    return claimJob(ctx, workerId, leaseMs, trx);
  });
}

/** Gives back a job taken but not started (the worker is stopping): free at once, its attempt not counted. */
export async function releaseJob(ctx: ServerContext, job: Job): Promise<void> {
  await ctx.database.db
    .updateTable("job")
    .set((eb) => ({ locked_until: null, locked_by: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "=", job.id)
    .where("locked_by", "=", job.locked_by)
    .execute();
}

/** Exponential back-off: 5 s, 10 s, 20 s … capped at ten minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}

/** A failure that names how long to wait before the next try (a DMS's 429 with Retry-After). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly afterMs: number,
  ) {
    super(message);
    this.name = "RetryLater";
  }
}

/** Tries the job again after its back-off, or after `atLeastMs` where the failure asked for longer. */
export async function retryJob(ctx: ServerContext, job: Job, error: string, atLeastMs = 0): Promise<void> {
  await ctx.database.db
    .updateTable("job")
    .set({
      run_at: ctx.clock.now() + Math.max(backoffMs(job.attempts), Math.min(atLeastMs, 24 * 3_600_000)),
      locked_until: null,
      locked_by: null,
      last_error: error.slice(0, 2000),
    })
    .where("id", "=", job.id)
    .execute();
}
