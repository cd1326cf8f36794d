import { type RawBuilder, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import type { Insertable, Kysely, Selectable } from "kysely";
import { newId } from "../lib/ids";
import { firmOfJobColumns } from "../firm/firm-repository";

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

/** The queue's row for a job due at `runAt`. */
export function jobRow(job: { kind: JobKind; firmId: number; refId: string; runAt: number }): Insertable<DB["job"]> {
  return {
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
  };
}

/** Adds a job; inside a transaction it commits with the rows it refers to. */
export async function enqueue(db: Kysely<DB>, job: { kind: JobKind; firmId: number; refId: string; runAt: number }): Promise<void> {
  await db.insertInto("job").values(jobRow(job)).execute();
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
 * A job as a worker takes it: with the version of its firm's words, read in the same statement,
 * and on PostgreSQL its firm's record and webhooks (firmReadsOfClaim).
 */
export type ClaimedJob = Job & { dictionary_version: number; firm_row?: unknown; webhook_rows?: unknown; more_due?: boolean | number };

/** The next due job's id, locked for this claim on PostgreSQL (several workers never take the same job). */
function nextDue(ctx: ServerContext, now: number, passing?: string) {
  const lock = ctx.database.dialect === "postgres" ? sql`for update skip locked` : sql``;
  // A job being completed in the same statement is never taken again by it.
  const notPassing = passing ? sql`and id <> ${passing}` : sql``;
  return sql`select id from job
    where run_at <= ${now} and (locked_until is null or locked_until < ${now}) ${notPassing}
    order by run_at, id
    limit 1 ${lock}`;
}

/** How a claim is made: the job a completion passes on (never taken again), and whether to say if more jobs are due. */
interface ClaimOptions {
  passing?: string;
  /** A worker's poll asks it, for its idle loops' turn (`more_due`); a completion's claim does not. */
  askMoreDue?: boolean;
}

function claimed(ctx: ServerContext, workerId: string, leaseMs: number, now: number, { passing, askMoreDue = false }: ClaimOptions = {}) {
  // SQLite's JSON functions cannot turn a row into an object unnamed: there the job reads its firm.
  const firm = ctx.database.dialect === "postgres" ? sql`, ${firmOfJobColumns(ctx.database.db)}` : sql``;
  const moreDue = askMoreDue
    ? sql`, exists (select 1 from job as due where due.run_at <= ${now} and (due.locked_until is null or due.locked_until < ${now})
        and due.id <> job.id) as more_due`
    : sql``;
  return sql`update job set locked_until = ${now + leaseMs}, locked_by = ${workerId}, attempts = attempts + 1
    where id = (${nextDue(ctx, now, passing)})
    returning *, (select dictionary_version from firm where firm.id = job.firm_id) as dictionary_version ${moreDue} ${firm}`;
}

/**
 * Takes the next due job for this worker, leased until `leaseMs` from now. On PostgreSQL the
 * row is picked with FOR UPDATE SKIP LOCKED, so several workers never take the same job; on
 * SQLite the single writer serialises the claim.
 */
export async function claimJob(
  ctx: ServerContext,
  workerId: string,
  leaseMs: number,
  { db = ctx.database.db, askMoreDue }: Pick<ClaimOptions, "askMoreDue"> & { db?: Kysely<DB> } = {},
): Promise<ClaimedJob | undefined> {
  const result = await claimed(ctx, workerId, leaseMs, ctx.clock.now(), { askMoreDue }).execute(db);
  return result.rows[0] as ClaimedJob | undefined;
}

export async function completeJob(ctx: ServerContext, job: Job, db: Kysely<DB> = ctx.database.db): Promise<void> {
  await db.deleteFrom("job").where("id", "=", job.id).where("locked_by", "=", job.locked_by).execute();
}

/** What completing a job and claiming the next answered: the next job, and what the job left when asked. */
export interface Completed {
  next: ClaimedJob | undefined;
  /** The value of `left` read in the same statement (PostgreSQL only). */
  left?: unknown;
}

/**
 * Completes a job and takes the next due one at once: a busy worker asks for the database's
 * write lock once per job instead of twice (on SQLite, where processes take turns at one writer,
 * every turn asked for is one more to wait for). On PostgreSQL it is one statement (the delete a
 * data-modifying CTE of the claim), one round trip instead of four with BEGIN and COMMIT, which
 * also reads `left` (a scalar subquery: what the job left, for its log line) when given.
 */
export async function completeAndClaimNext(ctx: ServerContext, job: Job, workerId: string, leaseMs: number, left?: RawBuilder<unknown>): Promise<Completed> {
  const now = ctx.clock.now();
  if (ctx.database.dialect === "postgres") {
    // One row whether or not a job was claimed: the claim's columns are empty when none was.
    const result = await sql<ClaimedJob & { stage_left: unknown }>`with done as (delete from job where id = ${job.id} and locked_by = ${job.locked_by}),
      next as (${claimed(ctx, workerId, leaseMs, now, { passing: job.id })})
      select next.*, ${left ?? sql`null`} as stage_left from (select 1) as one left join next on true`.execute(ctx.database.db);
    const { stage_left, ...next } = result.rows[0]!;
    return { next: next.id == null ? undefined : next, left: stage_left };
  }
  const next = await ctx.database.db.transaction().execute(async (trx) => {
    await completeJob(ctx, job, trx);
    return claimJob(ctx, workerId, leaseMs, { db: trx });
  });
  return { next };
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
