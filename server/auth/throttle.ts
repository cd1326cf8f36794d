import { sql } from "kysely";
import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";

/**
 * Attempts counted per account and per client address in the database, so every API process sees
 * the same counts: failed sign-ins, and password-reset requests (each one says whether an address
 * has an account). A key is locked for a while once its attempts reach the limit.
 */
export type ThrottleKey = { kind: "account" | "address"; value: string; of?: "sign-in" | "reset" };

function keyOf(k: ThrottleKey): string {
  return `${k.of === "reset" ? "reset-" : ""}${k.kind}:${k.value.toLowerCase()}`;
}

function limitOf(ctx: ServerContext, k: ThrottleKey): number {
  return k.kind === "account" ? ctx.config.ECFX_LOGIN_MAX_FAILURES : ctx.config.ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS;
}

/** Milliseconds until the first locked key opens again, or 0 when none is locked. */
async function lockedFor(ctx: ServerContext, keys: ThrottleKey[]): Promise<number> {
  const now = ctx.clock.now();
  const rows = await ctx.database.db.selectFrom("login_throttle").select(["locked_until"]).where("key", "in", keys.map(keyOf)).execute();
  return Math.max(0, ...rows.map((r) => (r.locked_until ?? 0) - now));
}

/** Refuses with 429, saying for how long, while any of the keys is locked. */
export async function refuseWhileLocked(ctx: ServerContext, keys: ThrottleKey[], messageKey: string): Promise<void> {
  const wait = await lockedFor(ctx, keys);
  if (wait <= 0) return;
  throw new HttpError(429, message(messageKey, { minutes: Math.ceil(wait / 60_000) }), undefined, { "retry-after": String(Math.ceil(wait / 1000)) });
}

export async function countAttempt(ctx: ServerContext, keys: ThrottleKey[]): Promise<void> {
  const now = ctx.clock.now();
  const windowMs = ctx.config.ECFX_LOGIN_LOCK_MINUTES * 60_000;
  // One upsert per key counts in the database itself: a read-then-write let simultaneous
  // failures (parallel guesses, several API processes) overwrite each other's counts.
  const expired = sql<boolean>`login_throttle.window_start < ${now - windowMs}`;
  for (const k of keys) {
    const key = keyOf(k);
    const row = await ctx.database.db
      .insertInto("login_throttle")
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          failures: sql<number>`case when ${expired} then 1 else login_throttle.failures + 1 end`,
          window_start: sql<number>`case when ${expired} then ${now} else login_throttle.window_start end`,
          locked_until: sql<number | null>`case when ${expired} then null else login_throttle.locked_until end`,
        }),
      )
      .returning("failures")
      .executeTakeFirstOrThrow();
    if (row.failures >= limitOf(ctx, k)) {
      await ctx.database.db
        .updateTable("login_throttle")
        .set({ locked_until: now + windowMs })
        .where("key", "=", key)
        .execute();
    }
  }
}

export async function clearFailures(ctx: ServerContext, key: ThrottleKey): Promise<void> {
  await ctx.database.db.deleteFrom("login_throttle").where("key", "=", keyOf(key)).execute();
}
