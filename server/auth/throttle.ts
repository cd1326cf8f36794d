import type { ServerContext } from "../context";

/**
 * Failed sign-ins counted per account and per client address in the database, so every API
 * process sees the same counts. A key is locked for a while once its failures reach the limit.
 */
export type ThrottleKey = { kind: "account" | "address"; value: string };

function keyOf(k: ThrottleKey): string {
  return `${k.kind}:${k.value.toLowerCase()}`;
}

function limitOf(ctx: ServerContext, k: ThrottleKey): number {
  return k.kind === "account" ? ctx.config.ECFX_LOGIN_MAX_FAILURES : ctx.config.ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS;
}

/** Milliseconds until the first locked key opens again, or 0 when none is locked. */
export async function lockedFor(ctx: ServerContext, keys: ThrottleKey[]): Promise<number> {
  const now = ctx.clock.now();
  const rows = await ctx.database.db
    .selectFrom("login_throttle")
    .select(["locked_until"])
    .where("key", "in", keys.map(keyOf))
    .execute();
  return Math.max(0, ...rows.map((r) => (r.locked_until ?? 0) - now));
}

export async function recordFailure(ctx: ServerContext, keys: ThrottleKey[]): Promise<void> {
  const now = ctx.clock.now();
  const windowMs = ctx.config.ECFX_LOGIN_LOCK_MINUTES * 60_000;
  for (const k of keys) {
    const key = keyOf(k);
    await ctx.database.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom("login_throttle").selectAll().where("key", "=", key).executeTakeFirst();
      const fresh = !row || now - row.window_start > windowMs;
      const failures = fresh ? 1 : row.failures + 1;
      const locked_until = failures >= limitOf(ctx, k) ? now + windowMs : null;
      if (!row) {
        // A concurrent first failure may have inserted the row already; one count lost is harmless.
        await trx
          .insertInto("login_throttle")
          .values({ key, failures, window_start: now, locked_until })
          .onConflict((oc) => oc.column("key").doNothing())
          .execute();
      } else {
        await trx
          .updateTable("login_throttle")
          .set({ failures, window_start: fresh ? now : row.window_start, locked_until })
          .where("key", "=", key)
          .execute();
      }
    });
  }
}

export async function clearFailures(ctx: ServerContext, key: ThrottleKey): Promise<void> {
  await ctx.database.db.deleteFrom("login_throttle").where("key", "=", keyOf(key)).execute();
}
