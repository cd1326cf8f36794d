import { hostname } from "node:os";
import type { ServerContext } from "../context";
import { newId } from "../lib/ids";
import { MAX_FETCH_ATTEMPTS, fetchDocument } from "../pipeline/fetch-document";
import { setItem } from "../pipeline/item-state";
import { processInboxItem } from "../pipeline/process-inbox-item";
import { type Job, type JobKind, claimJob, completeJob, retryJob } from "./queue";
import { MAX_NOTIFY_ATTEMPTS, notifyInboxItem } from "../notify/notify-inbox-item";
import { MAX_STORAGE_ATTEMPTS, storeInboxItem } from "../storage/store-inbox-item";
import { applyWalls } from "../walls/apply-walls";

const LEASE_MS = 60_000;
const IDLE_POLL_MS = 250;
const MAX_ITEM_ATTEMPTS = 5;

/** What each kind of job does; `ref_id` names the row it is about. */
const JOB_HANDLERS: Record<JobKind, (ctx: ServerContext, job: Job) => Promise<void>> = {
  "process-inbox-item": (ctx, job) => processInboxItem(ctx, job.ref_id),
  "fetch-document": (ctx, job) => fetchDocument(ctx, job.ref_id, job.attempts),
  "apply-walls": (ctx, job) => applyWalls(ctx, job.firm_id),
  "store-inbox-item": (ctx, job) => storeInboxItem(ctx, job.ref_id, job.attempts),
  "notify-inbox-item": (ctx, job) => notifyInboxItem(ctx, job.ref_id, job.attempts),
};

/** How often each kind of job is tried before the worker gives up on it. */
const ATTEMPT_LIMITS: Partial<Record<JobKind, number>> = {
  "fetch-document": MAX_FETCH_ATTEMPTS,
  "notify-inbox-item": MAX_NOTIFY_ATTEMPTS,
  "store-inbox-item": MAX_STORAGE_ATTEMPTS,
};

async function run(ctx: ServerContext, job: Job): Promise<void> {
  const handler = JOB_HANDLERS[job.kind as JobKind];
  if (!handler) throw new Error(`Unknown job kind ${job.kind}`);
  return handler(ctx, job);
}

/** What a job that keeps failing leaves behind: the item Failed with the reason. */
async function giveUp(ctx: ServerContext, job: Job, reason: string): Promise<void> {
  if (job.kind === "process-inbox-item") {
    await setItem(ctx, { id: job.ref_id, firm_id: job.firm_id }, { status: "Failed", action_required: "ECFX", reason }, { event: "failed", detail: reason, level: "ERROR" });
  }
  await completeJob(ctx, job);
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
    await ctx.database.db.updateTable("job").set({ locked_until: null, locked_by: null }).where("id", "in", dead.map((j) => j.id)).execute();
  }
}

export function startWorker(ctx: ServerContext, concurrency = 4): Worker {
  const workerId = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const released = releaseLeasesOfDeadProcesses(ctx).catch((error: unknown) => console.error("could not release stale job leases", error));
  let stopping = false;
  // A drain waits for an empty poll that began after it was asked for: a poll already under way
  // may have looked before the caller's last job was committed.
  let polls = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  let busy = 0;

  const loop = async () => {
    await released;
    while (!stopping) {
      const poll = ++polls;
      const job = await claimJob(ctx, workerId, LEASE_MS).catch((error: unknown) => {
        console.error("job queue unavailable", error);
        return undefined;
      });
      if (!job) {
        if (busy === 0) {
          idleWaiters.filter((w) => poll > w.after).forEach((w) => w.resolve());
          idleWaiters = idleWaiters.filter((w) => poll <= w.after);
        }
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        continue;
      }
      busy++;
      try {
        await run(ctx, job);
        await completeJob(ctx, job);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const limit = ATTEMPT_LIMITS[job.kind as JobKind] ?? MAX_ITEM_ATTEMPTS;
        if (job.attempts >= limit) await giveUp(ctx, job, reason);
        else {
          if (job.kind === "process-inbox-item") {
            await setItem(ctx, { id: job.ref_id, firm_id: job.firm_id }, { status: "Retry", reason }, { event: "retry", detail: reason, level: "WARNING" });
          }
          await retryJob(ctx, job, reason);
        }
      } finally {
        busy--;
      }
    }
  };
  const loops = Array.from({ length: concurrency }, () => loop());
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
    drain() {
      return new Promise<void>((resolve) => idleWaiters.push({ after: polls, resolve }));
    },
  };
}
