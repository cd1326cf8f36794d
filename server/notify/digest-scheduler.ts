import { isUniqueViolation } from "../lib/errors";
import type { ServerContext } from "../context";
import { withFirmWords } from "../db/firm-words";
import { newId } from "../lib/ids";
import { logEvent } from "../queue/event-log";
import { sendActivityReport } from "./activity-report";
import { dueLocalDate, isKnownTimeZone } from "./digest-schedule";
import { type DigestSchedule, loadSchedules } from "./digest-schedules";
import { sendErrorReports } from "./error-report";
import { sendDigest } from "./send-digest";
import { logger } from "../../app/common/logger";

// The daily mails. Every tick looks for schedules whose local time has come today and whose run
// of the day is not yet claimed. Inserting the digest_run row is the claim: its unique key
// (group, local date, kind) lets exactly one scheduler of any number of workers have it.

export type RunKind = "digest" | "activity-report";

/** How long a failed run of the day waits before this scheduler tries it again. */
export const FAILED_RUN_RETRY_MS = 15 * 60_000;

export interface DigestTickOptions {
  /** Failed runs (by id) and when this scheduler may try each again. */
  retryAfter?: Map<string, number>;
}

/** One pass over all schedules; returns the runs it carried out. */
export async function runDueDigests(ctx: ServerContext, options: DigestTickOptions = {}): Promise<number> {
  let ran = 0;
  for (const schedule of await loadSchedules(ctx)) {
    if (!isKnownTimeZone(schedule.timeZone)) continue;
    const localDate = dueLocalDate(ctx.clock.now(), schedule.timeZone, schedule.time);
    if (!localDate) continue;
    const kinds: RunKind[] = schedule.activityReport ? ["digest", "activity-report"] : ["digest"];
    for (const kind of kinds) {
      try {
        if (await runOnce(ctx, schedule, localDate, kind, options.retryAfter)) ran++;
      } catch (error) {
        logger("worker").error({ err: error, kind, schedule: schedule.key }, "a daily report could not run");
      }
    }
  }
  return ran;
}

/** Claims the run of the day (or a failed one, when its wait is over) and carries it out. */
async function runOnce(ctx: ServerContext, schedule: DigestSchedule, localDate: string, kind: RunKind, retryAfter?: Map<string, number>): Promise<boolean> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const existing = await db
    .selectFrom("digest_run")
    .select(["id", "status", "created_at"])
    .where("timekeeper_group_id", "=", schedule.key)
    .where("local_date", "=", localDate)
    .where("kind", "=", kind)
    .executeTakeFirst();
  let run: { id: string; createdAt: number };
  if (!existing) {
    run = { id: newId(), createdAt: now };
    try {
      await db
        .insertInto("digest_run")
        .values({ id: run.id, firm_id: schedule.firmId, timekeeper_group_id: schedule.key, local_date: localDate, kind, status: "running", created_at: now })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  } else {
    if (existing.status !== "failed" || (retryAfter?.get(existing.id) ?? 0) > now) return false;
    const claimed = await db
      .updateTable("digest_run")
      .set({ status: "running" })
      .where("id", "=", existing.id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    run = { id: existing.id, createdAt: existing.created_at };
  }
  try {
    const send = () => (kind === "digest" ? sendDigest(ctx, schedule, run.id) : sendActivityReport(ctx, schedule, localDate, run));
    await withFirmWords(ctx.database, schedule.firmId, send);
    await db.updateTable("digest_run").set({ status: "sent" }).where("id", "=", run.id).execute();
    retryAfter?.delete(run.id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db.updateTable("digest_run").set({ status: "failed" }).where("id", "=", run.id).execute();
    retryAfter?.set(run.id, ctx.clock.now() + FAILED_RUN_RETRY_MS);
    await logEvent(db, {
      firmId: schedule.firmId,
      event: kind === "digest" ? "digest failed" : "activity report failed",
      detail: reason.slice(0, 1000),
      level: "ERROR",
      at: ctx.clock.now(),
    });
  }
  return true;
}

export interface DigestScheduler {
  stop(): Promise<void>;
}

/** Ticks every `intervalMs` (a minute by default) until stopped; a tick under way finishes first. */
export function startDigestScheduler(ctx: ServerContext, options: { intervalMs?: number } = {}): DigestScheduler {
  const intervalMs = options.intervalMs ?? 60_000;
  const retryAfter = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    current = runDueDigests(ctx, { retryAfter })
      .catch((error: unknown) => logger("worker").error({ err: error }, "daily digests could not run"))
      .then(() => sendErrorReports(ctx))
      .catch((error: unknown) => logger("worker").error({ err: error }, "error reports could not be sent"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
