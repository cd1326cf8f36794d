import { type RawBuilder, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { compactDashboardCounts } from "../../server/dashboard/compact-counts";
import { DEMO, PG_URL, api, sessionsOf, testClock, useApi } from "./harness";

// On PostgreSQL several workers change notices of the same firm and hour at once. The dashboard's
// kept counts must not make them wait on each other: a worker whose notice changes state while
// another's open transaction changed one in the same buckets goes on at once, instead of waiting
// for it (and deadlocking when the other then waits on it). The rows each change adds are moved
// and folded by the compaction without changing any answer.
const NOW = Date.parse("2026-05-20T16:00:00Z");
const AT = Date.parse("2026-05-20T15:10:00Z");

describe.skipIf(!PG_URL)("the dashboard's counts under concurrent changes (postgres)", () => {
  const clock = testClock(NOW);
  const server = useApi({ backend: "postgres", clock, env: { ECFX_DASHBOARD_CACHE_SECONDS: "0" } });
  const sessionOf = sessionsOf(server, clock);
  let firmId = 0;
  const db = () => server().ctx.database.db;

  const byState = async () => {
    const res = await api(server().url, (await sessionOf(DEMO.admin)).access_token).get("/api/v1/dashboard?period=today");
    expect(res.status, res.text).toBe(200);
    const list = res.body.notifications.by_state as { key: string; count: number }[];
    return Object.fromEntries(list.filter((c) => c.count > 0).map((c) => [c.key, c.count]));
  };

  beforeAll(async () => {
    firmId = (await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    await db().updateTable("firm").set({ default_time_zone: "UTC" }).where("id", "=", firmId).execute();
    const notices = [
      ["c1", "New"],
      ["c2", "Succeeded"],
      ["c3", "Succeeded"],
    ] as const;
    for (const [id, status] of notices) {
      await db()
        .insertInto("inbox_item")
        .values({ id, firm_id: firmId, created_at: AT, updated_at: AT, status, source: "test", raw_content: Buffer.from("x"), raw_size: 1 } as never)
        .execute();
    }
  });

  it("lets a second transaction change a notice's state while the first holds its changes", async () => {
    expect(await byState()).toEqual({ New: 1, Succeeded: 2 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let changed!: () => void;
    const firstChanged = new Promise<void>((resolve) => (changed = resolve));
    const first = db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable("inbox_item").set({ status: "Started" }).where("id", "=", "c1").execute();
        changed();
        await held;
        await trx.updateTable("inbox_item").set({ status: "Started" }).where("id", "=", "c3").execute();
      });
    await firstChanged;
    // Succeeded → New while New and Started are changed, uncommitted, by the first: waiting on
    // the first would run out of the lock timeout.
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local lock_timeout = '1s'`.execute(trx);
        await trx.updateTable("inbox_item").set({ status: "New" }).where("id", "=", "c2").execute();
      });
    release();
    await first;
    expect(await byState()).toEqual({ New: 1, Started: 2 });
  });

  it("moves the pending rows into the buckets, folds each bucket's rows into one and answers the same", async () => {
    const count = async (query: RawBuilder<{ n: string }>) => Number((await query.execute(db())).rows[0]!.n);
    const rows = () => count(sql`select count(*) as n from dashboard_notice_count where firm_id = ${firmId}`);
    const keys = () => count(sql`select count(*) as n from (select distinct level, bucket, status from dashboard_notice_count where firm_id = ${firmId}) k`);
    const pending = () => count(sql`select count(*) as n from dashboard_notice_pending where firm_id = ${firmId}`);
    const before = await byState();
    expect(await pending()).toBeGreaterThan(0);
    expect(await compactDashboardCounts(server().ctx.database)).toBe(true);
    expect(await pending()).toBe(0);
    expect(await rows()).toBe(await keys());
    expect(await byState()).toEqual(before);
    // A change after it adds a row to each of its buckets, which the next compaction folds in.
    await db().updateTable("inbox_item").set({ status: "Succeeded" }).where("id", "=", "c2").execute();
    const after = await byState();
    expect(await compactDashboardCounts(server().ctx.database)).toBe(true);
    expect(await pending()).toBe(0);
    expect(await rows()).toBe(await keys());
    // Buckets whose changes added up to nothing are gone.
    expect(await count(sql`select count(*) as n from dashboard_notice_count where firm_id = ${firmId} and n = 0`)).toBe(0);
    expect(await byState()).toEqual(after);
    expect(after).toEqual({ Started: 2, Succeeded: 1 });
  });
});
