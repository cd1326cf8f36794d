import { hostname } from "node:os";
import type { RawBuilder } from "kysely";
import type { ServerContext } from "../context";
import { withFirmWords } from "../db/firm-words";
import { withJobReads } from "../db/job-reads";
import { firmReadsOfClaim } from "../firm/firm-repository";
import { newId } from "../lib/ids";
import { type Logger, logger } from "../../app/common/logger";
import { type ClaimedJob, type Job, type JobKind, RetryLater, claimJob, completeAndClaimNext, completeJob, releaseJob, retryJob } from "./queue";

const IDLE_POLL_MS = 250;
const DEFAULT_ATTEMPTS = 5;
/** How often a running worker looks for work that no job carries on (it also looks at start). */
const STALLED_SWEEP_MS = 5 * 60_000;

/** What one kind of job does (`ref_id` names the row it is about) and what its failures leave behind. */
export interface JobHandler {
  run(ctx: ServerContext, job: Job): Promise<void>;
  /** How often the job is tried before the worker gives up on it. */
  attempts?: number;
  /** Called before a failed job is tried again later. */
  onRetry?(ctx: ServerContext, job: Job, reason: string): Promise<void>;
  /** Called when the job keeps failing and is given up. */
  onGiveUp?(ctx: ServerContext, job: Job, reason: string): Promise<void>;
  /**
   * For its log line: the inbox item the job was about and what it left of it (`done` when not
   * said); `left` is what `left` below read, when it was.
   */
  describe?(ctx: ServerContext, job: Job, left?: unknown): Promise<StageOf>;
  /** What `describe` reads, as a scalar subquery: on PostgreSQL read with the job's completion. */
  left?(job: Job): RawBuilder<unknown>;
}

/** What a stage's log line says of the item a job was about. */
export interface StageOf {
  itemId?: string;
  outcome?: string;
}

/** The worker knows no job by name: whoever starts it says what each kind does. */
export type JobHandlers = Record<JobKind, JobHandler>;

function handlerOf(handlers: JobHandlers, job: Job): JobHandler {
  const handler = handlers[job.kind as JobKind];
  if (!handler) throw new Error(`Unknown job kind ${job.kind}`);
  return handler;
}

export interface Worker {
  stop(): Promise<void>;
  /** Resolves once no job is due (tests and the demo use it to wait for the pipeline). */
  drain(): Promise<void>;
}

/**
 * Runs jobs from the database queue with `concurrency` loops. A failing job is retried with
 * back-off and, past its attempts, marked Failed with the reason in the event log.
 */
/** Alive processes of this machine keep their leases; a dead one's jobs are free at once. */
async function releaseLeasesOfDeadProcesses(ctx: ServerContext): Promise<void> {
  const host = hostname();
  const held = await ctx.database.db.selectFrom("job").select(["id", "locked_by"]).where("locked_by", "like", `${host}:%`).execute();
  const dead = held.filter((job) => {
    const pid = Number(job.locked_by?.split(":")[1]);
    if (!pid || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
  if (dead.length) {
    await ctx.database.db
      .updateTable("job")
      .set({ locked_until: null, locked_by: null })
      .where(
        "id",
        "in",
        dead.map((j) => j.id),
      )
      .execute();
  }
}

/** The version of the job's firm's words its claim read (none when the firm is gone: read again). */
const wordsOf = (job: ClaimedJob): number | undefined => (job.dictionary_version == null ? undefined : Number(job.dictionary_version));

/** A failed job is tried again later, or given up past its attempts; says which. */
async function recordFailure(ctx: ServerContext, handlers: JobHandlers, job: ClaimedJob, error: unknown): Promise<"given up" | "retry"> {
  const reason = error instanceof Error ? error.message : String(error);
  const handler = handlers[job.kind as JobKind];
  if (job.attempts >= (handler?.attempts ?? DEFAULT_ATTEMPTS)) {
    await withFirmWords(ctx.database, job.firm_id, async () => handler?.onGiveUp?.(ctx, job, reason), wordsOf(job));
    await completeJob(ctx, job);
    return "given up";
  }
  await withFirmWords(ctx.database, job.firm_id, async () => handler?.onRetry?.(ctx, job, reason), wordsOf(job));
  await retryJob(ctx, job, reason, error instanceof RetryLater ? error.afterMs : 0);
  return "retry";
}

/**
 * One line per job at info, the pipeline's stage as it ends: the job's kind, the row it is about,
 * its firm, what it left (an item's status, a retry), attempt and milliseconds. A job that failed
 * carries its error; one tried again later is a warning, one given up an error.
 */
async function stageLine(
  ctx: ServerContext,
  log: Logger,
  handler: JobHandler | undefined,
  job: Job,
  took: { started: bigint; ended?: bigint },
  failed?: { outcome: string; error: unknown },
  left?: unknown,
) {
  const ms = Math.round(Number((took.ended ?? process.hrtime.bigint()) - took.started) / 1e5) / 10;
  if (!failed && !log.isLevelEnabled("info")) return;
  // Saying what the job left must not stop the worker: the line then says less.
  const of = (await handler?.describe?.(ctx, job, left).catch(() => undefined)) ?? {};
  const error = failed?.error;
  const outcome = failed?.outcome ?? of.outcome ?? "done";
  const line = {
    stage: job.kind,
    ...(of.itemId ? { itemId: of.itemId } : {}),
    ref: job.ref_id,
    firmId: job.firm_id,
    jobId: job.id,
    attempt: job.attempts,
    outcome,
    ms,
    ...(failed ? { err: error } : {}),
  };
  if (!failed) log.info(line, "stage");
  else if (outcome === "retry") log.warn(line, "stage failed, tried again later");
  else log.error(line, "stage failed");
}

export interface WorkerOptions {
  /** Where its lines go: the process's logger unless given. */
  log?: Logger;
  /**
   * Queues again what no job carries on (items a crash left half way); run at start, once the
   * leases of dead processes are free, and every few minutes.
   */
  requeueStalled?: (ctx: ServerContext) => Promise<unknown>;
}

export function startWorker(ctx: ServerContext, handlers: JobHandlers, concurrency = 4, options: WorkerOptions = {}): Worker {
  const workerId = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const log = (options.log ?? logger()).child({ component: "worker" });
  const sweep = async () => {
    await options.requeueStalled?.(ctx).catch((error: unknown) => log.error({ err: error }, "could not look for stalled work"));
  };
  const released = releaseLeasesOfDeadProcesses(ctx)
    .catch((error: unknown) => log.error({ err: error }, "could not release stale job leases"))
    .then(sweep);
  const sweeper = setInterval(() => void sweep(), STALLED_SWEEP_MS);
  sweeper.unref();
  let stopping = false;
  // A drain waits for an empty poll that began after it was asked for: a poll already under way
  // may have looked before the caller's last job was committed.
  let polls = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  let busy = 0;
  // Idle loops take turns: while the queue is empty one loop polls every IDLE_POLL_MS and the
  // others wait, so a process's empty polls do not grow with its loops. A poll that finds a job
  // hands the turn on, and the loop given it polls at once when the claim saw more jobs due.
  let turnTaken = false;
  let waitingForTurn: ((atOnce: boolean) => void)[] = [];
  // Among worker processes too, one polls an empty queue at a time (decision 140): a process
  // keeps that turn while one of its loops is idle, and gives it up once all are at work.
  const processTurn = ctx.database.pollingTurn();
  const passTurn = (atOnce: boolean) => {
    const next = waitingForTurn.shift();
    turnTaken = next !== undefined;
    next?.(atOnce);
    if (!turnTaken) processTurn.give();
  };
  // A drain polls at once, also in a process waiting for the turn: it ends these waits.
  const waitsForTurn = new Set<() => void>();
  /** Resolves once this process may poll: true when it waited (the holder just found work, so poll now). */
  const waitForProcessTurn = () =>
    new Promise<boolean>((resolve) => {
      const woken = () => resolve(false);
      waitsForTurn.add(woken);
      void processTurn.take().then((held) => {
        waitsForTurn.delete(woken);
        resolve(!held);
      });
    });

  const leaseMs = ctx.config.ECFX_JOB_LEASE_SECONDS * 1000;
  const loop = async () => {
    await released;
    // The claim made with the last job's completion, as a poll of its own.
    let carried: { poll: number; job: ClaimedJob | undefined } | undefined;
    let hasTurn = false;
    while (!stopping) {
      // Counted busy while claiming (and while carrying a claim): another loop's empty poll must
      // not call the queue drained while this claim may still bring a job back.
      if (!carried) busy++;
      const { poll, job } = carried ?? {
        poll: ++polls,
        job: await claimJob(ctx, workerId, leaseMs, { askMoreDue: true }).catch((error: unknown) => {
          log.error({ err: error }, "job queue unavailable");
          return undefined;
        }),
      };
      carried = undefined;
      if (!job) {
        busy--;
        if (busy === 0) {
          idleWaiters.filter((w) => poll > w.after).forEach((w) => w.resolve());
          idleWaiters = idleWaiters.filter((w) => poll <= w.after);
        }
        const atOnce = hasTurn || !turnTaken ? false : await new Promise<boolean>((resolve) => waitingForTurn.push(resolve));
        hasTurn = turnTaken = true;
        if (atOnce || stopping) continue;
        // Given the turn after waiting for it: the process that had it just found work, so poll now.
        const waited = idleWaiters.length === 0 && (await waitForProcessTurn());
        if (!waited && !stopping) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        continue;
      }
      if (hasTurn) {
        hasTurn = false;
        passTurn(Boolean(job.more_due));
      }
      const started = process.hrtime.bigint();
      const handler = handlers[job.kind as JobKind] as JobHandler | undefined;
      try {
        // A job speaks its firm's words: the reasons it stores and the mail it sends. It reads
        // its firm's record and webhooks once (on PostgreSQL its claim read them).
        await withJobReads(() => withFirmWords(ctx.database, job.firm_id, () => handlerOf(handlers, job).run(ctx, job), wordsOf(job)), firmReadsOfClaim(job));
        const ended = process.hrtime.bigint();
        if (stopping) {
          await stageLine(ctx, log, handler, job, { started, ended });
          await completeJob(ctx, job);
        } else {
          // On PostgreSQL what the job left for its line is read with its completion.
          const readLeft = handler?.left && ctx.database.dialect === "postgres" && log.isLevelEnabled("info");
          const completed = await completeAndClaimNext(ctx, job, workerId, leaseMs, readLeft ? handler.left!(job) : undefined);
          carried = { poll: ++polls, job: completed.next };
          await stageLine(ctx, log, handler, job, { started, ended }, undefined, readLeft ? completed.left : undefined);
        }
      } catch (error) {
        // Recording the failure can fail too (the database gone a moment, a deadlock): the loop
        // goes on, and the job's lease running out brings it back.
        const outcome = await recordFailure(ctx, handlers, job, error).catch((failure: unknown) => {
          log.error({ err: failure, jobId: job.id }, "could not record the failure of a job");
          return "retry" as const;
        });
        await stageLine(ctx, log, handler, job, { started }, { outcome, error });
      } finally {
        if (!carried) busy--;
      }
    }
    // Stopped with a job taken and not started: it is free for another worker at once.
    if (carried) {
      busy--;
      if (carried.job)
        await releaseJob(ctx, carried.job).catch((error: unknown) => log.error({ err: error, jobId: carried?.job?.id }, "could not give back a job"));
    }
  };
  const loops = Array.from({ length: concurrency }, () => loop());
  return {
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      waitingForTurn.forEach((resolve) => resolve(true));
      waitingForTurn = [];
      await processTurn.close();
      await Promise.all(loops);
    },
    drain() {
      const drained = new Promise<void>((resolve) => idleWaiters.push({ after: polls, resolve }));
      waitsForTurn.forEach((wake) => wake());
      waitsForTurn.clear();
      return drained;
    },
  };
}
