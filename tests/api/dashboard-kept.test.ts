import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { compactCountsIn, compactDashboardCounts } from "../../server/dashboard/compact-counts";
import { DEMO, api, backends, sessionsOf, testClock, useApi, creator } from "./harness";
import { insertNoticeRow } from "./notice-rows";

dayjs.extend(utc);
dayjs.extend(timezone);

// The dashboard reads counts the database keeps with triggers. These tests change notices,
// documents, cases and assignments the way any code could (straight in the database) and check
// that the answers follow: by hand for single changes, and against a count of the notices made
// here for a bulk insert, in zones a whole, a half and three quarters of an hour off UTC.
const NOW = Date.parse("2026-03-10T16:00:00Z");
const HOUR = 3_600_000;

const counts = (list: { key: string; count: number }[]) => Object.fromEntries(list.filter((c) => c.count > 0).map((c) => [c.key, c.count]));
const ranked = (list: { name: string; count: number }[]) => list.map((r) => [r.name, r.count]);

describe.each(backends)("the dashboard's kept counts (%s)", (backend) => {
  const clock = testClock(NOW);
  const server = useApi({ backend, clock, env: { ECFX_DASHBOARD_CACHE_SECONDS: "0" } });
  const sessionOf = sessionsOf(server, clock);
  const ids: Record<string, string> = {};
  let firmId = 0;
  const db = () => server().ctx.database.db;

  const dashboard = async (query: string, email: string = DEMO.admin) => {
    const res = await api(server().url, (await sessionOf(email)).access_token).get(`/api/v1/dashboard?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  const notice = (id: string, at: number, status: string, caseId: string | null) => insertNoticeRow(db(), { id, firmId, at, status, caseId });
  const rowsIn = async (table: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db())).rows[0]!.n);
  /** PostgreSQL: the rows of a count table and of its pending table (migration 077). */
  const countAndPending = async (name: "notice" | "document") => [await rowsIn(`dashboard_${name}_count`), await rowsIn(`dashboard_${name}_pending`)];

  beforeAll(async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    firmId = (await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    await db().updateTable("firm").set({ default_time_zone: "America/New_York" }).where("id", "=", firmId).execute();
    const post = creator(admin);
    ids.ann = await post("/api/v1/timekeeper", { full_name: "Ann Archer", email: "ann@lawfirm.test" });
    ids.bob = await post("/api/v1/timekeeper", { full_name: "Bob Baker", email: "bob@lawfirm.test" });
    ids.X = await post("/api/v1/client", { name: "Xavier Holdings", unique_key: "C-X" });
    ids.Y = await post("/api/v1/client", { name: "Yellow Ltd", unique_key: "C-Y" });
    ids.A = await post("/api/v1/matter", { name: "Matter A", unique_key: "M-A", client_id: ids.X });
    ids.B = await post("/api/v1/matter", { name: "Matter B", unique_key: "M-B", client_id: ids.Y });
    const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. kept", ecfx_jurisdictions: ["nysd"] });
    const courtCase = (name: string, number: string, matter: string, timekeepers: string[]) =>
      post("/api/v1/case", { name, case_number: number, matter_id: matter, jurisdiction_id: jurisdiction, assigned_timekeepers: timekeepers });
    ids.A1 = await courtCase("A one", "1:26-cv-00011", ids.A, [ids.ann]);
    ids.B1 = await courtCase("B one", "1:26-cv-00012", ids.B, [ids.bob]);
  });

  it("follows state changes, deletes, re-matching, a case's new matter and timekeepers, and documents", async () => {
    await notice("k1", Date.parse("2026-03-10T14:00:00Z"), "New", ids.A1!);
    await notice("k2", Date.parse("2026-03-10T15:00:00Z"), "New", ids.A1!);
    await notice("k3", Date.parse("2026-02-01T15:00:00Z"), "Succeeded", ids.B1!);
    await notice("k4", Date.parse("2025-06-15T12:00:00Z"), "Failed", null);
    let d = await dashboard("period=last_year");
    expect(d.notifications.total).toBe(4);
    expect(counts(d.notifications.by_state)).toEqual({ New: 2, Succeeded: 1, Failed: 1 });
    expect(ranked(d.top_matters)).toEqual([
      ["Matter A", 2],
      ["Matter B", 1],
    ]);

    // PostgreSQL writes a notice's new state as two pending rows (the old state's -1, the new
    // one's +1) and no count row of any level until the compaction moves them.
    const noticeRows = backend === "postgres" ? await countAndPending("notice") : null;
    await db().updateTable("inbox_item").set({ status: "Succeeded" }).where("id", "=", "k1").execute();
    if (noticeRows) expect(await countAndPending("notice")).toEqual([noticeRows[0], noticeRows[1]! + 2]);
    d = await dashboard("period=last_year");
    expect(counts(d.notifications.by_state)).toEqual({ New: 1, Succeeded: 2, Failed: 1 });
    expect(d.time_saved.notices).toBe(2);

    // Re-matched to B's case: the notice now counts for matter B, client Y and Bob.
    await db().updateTable("inbox_item").set({ case_id: ids.B1! }).where("id", "=", "k2").execute();
    d = await dashboard("period=last_year");
    expect(ranked(d.top_matters)).toEqual([
      ["Matter B", 2],
      ["Matter A", 1],
    ]);
    expect(ranked(d.top_clients)).toEqual([
      ["Yellow Ltd", 2],
      ["Xavier Holdings", 1],
    ]);
    expect(ranked(d.top_timekeepers)).toEqual([
      ["Bob Baker", 2],
      ["Ann Archer", 1],
    ]);

    await db().deleteFrom("inbox_item").where("id", "=", "k3").execute();
    // From here on PostgreSQL's answers add the changes still pending to the counts moved so far.
    if (backend === "postgres") expect(await compactDashboardCounts(server().ctx.database)).toBe(true);
    d = await dashboard("period=last_year");
    expect(d.notifications.total).toBe(3);
    expect(counts(d.notifications.by_month)).toEqual({ "2025-06": 1, "2026-03": 2 });
    expect(ranked(d.top_matters)).toEqual([
      ["Matter A", 1],
      ["Matter B", 1],
    ]);

    // B's case moves to matter A (client X), then Ann joins it and Bob leaves it.
    await db().updateTable("court_case").set({ matter_id: ids.A! }).where("id", "=", ids.B1!).execute();
    d = await dashboard("period=last_year");
    expect(ranked(d.top_matters)).toEqual([["Matter A", 2]]);
    expect(ranked(d.top_clients)).toEqual([["Xavier Holdings", 2]]);
    await db().insertInto("case_timekeeper").values({ case_id: ids.B1!, timekeeper_id: ids.ann!, firm_id: firmId }).execute();
    await db().deleteFrom("case_timekeeper").where("case_id", "=", ids.B1!).where("timekeeper_id", "=", ids.bob!).execute();
    expect(ranked((await dashboard("period=last_year")).top_timekeepers)).toEqual([["Ann Archer", 2]]);

    // A notice moved in time leaves last year's count for today's.
    await db()
      .updateTable("inbox_item")
      .set({ created_at: Date.parse("2026-03-10T15:30:00Z") })
      .where("id", "=", "k4")
      .execute();
    expect((await dashboard("period=today")).notifications.total).toBe(3);
    expect(counts((await dashboard("period=last_year")).notifications.by_month)).toEqual({ "2026-03": 3 });

    await db()
      .insertInto("envelope")
      .values({ id: "ke1", firm_id: firmId, inbox_item_id: "k1", case_id: ids.A1!, name: "Order", created_at: NOW, updated_at: NOW } as never)
      .execute();
    await db()
      .insertInto("document")
      .values({
        id: "kd1",
        firm_id: firmId,
        envelope_id: "ke1",
        processed_from_id: "k1",
        number: 1,
        name: "Doc",
        sealed: 0,
        fetch_status: "fetched",
        dms_status: "succeeded",
        created_at: NOW - HOUR,
      } as never)
      .execute();
    expect((await dashboard("period=today")).documents).toEqual({ received: 1, fetched: 1, stored: 1, failed: 0, sealed: 0 });
    await db().updateTable("document").set({ dms_status: "failed", sealed: 1 }).where("id", "=", "kd1").execute();
    expect((await dashboard("period=today")).documents).toEqual({ received: 1, fetched: 1, stored: 0, failed: 1, sealed: 1 });
    // A change of what the dashboard does not count writes no row; a document moved in time moves.
    const documentRows = async () => (backend === "postgres" ? await countAndPending("document") : [await rowsIn("dashboard_document_count")]);
    const rowsBefore = await documentRows();
    await db().updateTable("document").set({ dms_status: "new" }).where("id", "=", "kd1").execute();
    await db().updateTable("document").set({ fetch_status: "restricted" }).where("id", "=", "kd1").execute();
    expect((await dashboard("period=today")).documents).toEqual({ received: 1, fetched: 0, stored: 0, failed: 0, sealed: 1 });
    const rowsAfter = await documentRows();
    // PostgreSQL adds one pending row for each change counted, none to the count table until the
    // compaction; SQLite updates its rows of every level in place.
    expect(rowsAfter).toEqual(backend === "postgres" ? [rowsBefore[0], rowsBefore[1]! + 2] : rowsBefore);
    await db().updateTable("document").set({ dms_status: "canceled" }).where("id", "=", "kd1").execute();
    expect(await documentRows()).toEqual(rowsAfter);
    await db().updateTable("document").set({ fetch_status: "fetched", dms_status: "failed" }).where("id", "=", "kd1").execute();
    expect((await dashboard("period=today")).documents).toEqual({ received: 1, fetched: 1, stored: 0, failed: 1, sealed: 1 });
    await db()
      .updateTable("document")
      .set({ created_at: Date.parse("2025-06-15T12:00:00Z") })
      .where("id", "=", "kd1")
      .execute();
    expect((await dashboard("period=today")).documents.received).toBe(0);
    expect((await dashboard("period=last_year")).documents).toEqual({ received: 1, fetched: 1, stored: 0, failed: 1, sealed: 1 });
    await db()
      .updateTable("document")
      .set({ created_at: NOW - HOUR })
      .where("id", "=", "kd1")
      .execute();
    expect((await dashboard("period=today")).documents).toEqual({ received: 1, fetched: 1, stored: 0, failed: 1, sealed: 1 });
    await db().deleteFrom("document").where("id", "=", "kd1").execute();
    expect((await dashboard("period=today")).documents.received).toBe(0);

    // Ethical walls still apply to the kept counts: Bob, walled out of matter A, sees none of its notices.
    await db().updateTable("app_user").set({ timekeeper_id: ids.bob! }).where("email", "=", DEMO.manager).execute();
    await db()
      .insertInto("ethical_wall")
      .values({
        id: "kw",
        firm_id: firmId,
        name: "kw",
        type: "exclusionary",
        matter_id: ids.A!,
        client_id: null,
        created_at: NOW,
        updated_at: NOW,
        reference_id: null,
        unique_key: null,
      })
      .execute();
    await db().insertInto("ethical_wall_timekeeper").values({ wall_id: "kw", timekeeper_id: ids.bob!, firm_id: firmId }).execute();
    await db().updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    const walled = await dashboard("period=today", DEMO.manager);
    expect(walled.notifications.total).toBe(1);
    expect(counts(walled.notifications.by_state)).toEqual({ Failed: 1 });
    expect(walled.top_matters).toEqual([]);
    expect(walled.top_timekeepers).toEqual([]);
    expect((await dashboard("period=today")).notifications.total).toBe(3);

    await db().updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firmId).execute();
    await db().deleteFrom("ethical_wall_timekeeper").execute();
    await db().deleteFrom("ethical_wall").execute();
    await db().deleteFrom("envelope").execute();
    await db().deleteFrom("inbox_item").execute();
    expect((await dashboard("period=all_time")).notifications.total).toBe(0);
    await db().updateTable("court_case").set({ matter_id: ids.B! }).where("id", "=", ids.B1!).execute();
    await db().deleteFrom("case_timekeeper").where("case_id", "=", ids.B1!).execute();
    await db().insertInto("case_timekeeper").values({ case_id: ids.B1!, timekeeper_id: ids.bob!, firm_id: firmId }).execute();
  });

  // One statement inserts them all, as a bulk load would: every 17 h 7 min back from now,
  // New, Failed or Succeeded in turn, on A's case, B's case or none.
  const BULK = 700;
  const SPACING = 17 * HOUR + 7 * 60_000;
  const made = (i: number, at: number) => ({
    i,
    at,
    status: ["Failed", "New", "Succeeded", "Succeeded"][i % 4]!,
    caseKey: ([["A1", "Matter A"], ["B1", "Matter B"], null] as const)[i % 3],
  });
  const spaced = Array.from({ length: BULK }, (_, k) => made(k + 1, NOW - (k + 1) * SPACING));
  const ZONES = ["America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide"];
  // And some minutes either side of the local midnights that begin and end the custom period,
  // yesterday and today in each zone: the parts of an hour or a day read beyond a period's ends
  // and taken off again hold notices (and documents) too.
  const EDGE_DAYS = ["2025-10-31", "2025-11-03", "2026-03-09", "2026-03-10"];
  const edgeInstants = ZONES.flatMap((zone) => EDGE_DAYS.map((day) => dayjs.tz(day, zone).valueOf()));
  const edges = edgeInstants.flatMap((m) => [-40, -10, 10, 40].map((minutes) => m + minutes * 60_000));
  const bulk = [...spaced, ...edges.map((at, k) => made(10_000 + 2 * k, at))];

  /** What the dashboard should say, counted here from the notices made above. */
  function expected(period: { from: number | null; to: number }, zone: string) {
    const inside = bulk.filter((b) => (period.from === null || b.at >= period.from) && b.at < period.to);
    const tally = (key: (b: (typeof bulk)[number]) => string | null) => {
      const out: Record<string, number> = {};
      for (const b of inside) {
        const k = key(b);
        if (k !== null) out[k] = (out[k] ?? 0) + 1;
      }
      return out;
    };
    const rankedBy = (names: Record<string, string>) =>
      Object.entries(tally((b) => (b.caseKey ? names[b.caseKey[1]]! : null))).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
    // Every other notice brought a document, fetched or failed in turn (see the bulk insert).
    const withDocument = inside.filter((b) => b.i % 2 === 0);
    const documents = {
      received: withDocument.length,
      fetched: withDocument.filter((b) => b.i % 4 === 0).length,
      stored: 0,
      failed: withDocument.filter((b) => b.i % 4 === 2).length,
      sealed: 0,
    };
    const matters = rankedBy({ "Matter A": "Matter A", "Matter B": "Matter B" });
    // Matter A is Xavier's, on Ann's case; Matter B is Yellow's, on Bob's.
    const clients = rankedBy({ "Matter A": "Xavier Holdings", "Matter B": "Yellow Ltd" });
    const timekeepers = rankedBy({ "Matter A": "Ann Archer", "Matter B": "Bob Baker" });
    return {
      total: inside.length,
      byState: tally((b) => b.status),
      byHour: tally((b) => dayjs(b.at).tz(zone).format("HH")),
      byMonth: tally((b) => dayjs(b.at).tz(zone).format("YYYY-MM")),
      matters,
      clients,
      timekeepers,
      documents,
    };
  }

  it("counts a bulk insert right for every period, in zones a half and three quarters of an hour off UTC", async () => {
    const series =
      backend === "postgres"
        ? sql`select i from generate_series(1, ${BULK}) as s(i)`
        : sql`select i from (with recursive s(i) as (select 1 union all select i + 1 from s where i < ${BULK}) select i from s)`;
    await sql`insert into inbox_item (id, firm_id, created_at, updated_at, status, source, raw_content, raw_size, case_id)
      select 'b' || i, ${firmId}, ${NOW} - i * cast(${SPACING} as bigint), ${NOW}, case i % 4 when 0 then 'Failed' when 1 then 'New' else 'Succeeded' end,
        'bulk', ${Buffer.from("x")}, 1, case i % 3 when 0 then ${ids.A1} when 1 then ${ids.B1} else null end
      from (${series}) as n`.execute(db());
    // PostgreSQL: the bulk insert is moved into the count rows, the edges and documents stay pending.
    if (backend === "postgres") expect(await compactDashboardCounts(server().ctx.database)).toBe(true);
    for (const b of bulk.filter((b) => b.i >= 10_000)) await notice(`b${b.i}`, b.at, b.status, b.caseKey ? ids[b.caseKey[0]]! : null);
    const even = sql`cast(substr(i.id, 2) as integer) % 2 = 0`;
    await sql`insert into envelope (id, firm_id, inbox_item_id, case_id, name, created_at, updated_at)
      select 'e' || i.id, i.firm_id, i.id, coalesce(i.case_id, ${ids.A1}), 'Bulk', i.created_at, i.created_at from inbox_item i where i.id like 'b%' and ${even}`.execute(
      db(),
    );
    await sql`insert into document (id, firm_id, envelope_id, processed_from_id, number, name, sealed, fetch_status, dms_status, created_at)
      select 'd' || i.id, i.firm_id, 'e' || i.id, i.id, 1, 'Bulk', 0,
        case when cast(substr(i.id, 2) as integer) % 4 = 0 then 'fetched' else 'failed' end, 'new', i.created_at
      from inbox_item i where i.id like 'b%' and ${even}`.execute(db());
    const periods = [
      "today",
      "yesterday",
      "last_7_days",
      "last_month",
      "3_months",
      "6_months",
      "last_year",
      "all_time",
      "custom&from=2025-10-31&to=2025-11-02",
    ];
    for (const zone of ZONES) {
      await db().updateTable("firm").set({ default_time_zone: zone }).where("id", "=", firmId).execute();
      for (const period of periods) {
        const d = await dashboard(`period=${period}`);
        const want = expected(d.period, zone);
        const label = `${zone} ${period}`;
        expect(d.notifications.total, label).toBe(want.total);
        expect(counts(d.notifications.by_state), label).toEqual(want.byState);
        expect(counts(d.notifications.by_hour), label).toEqual(want.byHour);
        expect(counts(d.notifications.by_month), label).toEqual(want.byMonth);
        expect(ranked(d.top_matters), label).toEqual(want.matters);
        expect(ranked(d.top_clients), label).toEqual(want.clients);
        expect(ranked(d.top_timekeepers), label).toEqual(want.timekeepers);
        expect(d.documents, label).toEqual(want.documents);
      }
    }
    await db().updateTable("firm").set({ default_time_zone: "America/New_York" }).where("id", "=", firmId).execute();
  }, 240_000);

  it.runIf(backend === "postgres")("answers the same before, during and after a compaction, which moves every pending row (postgres)", async () => {
    // Some changes of the bulk notices are still pending beside what earlier compactions moved.
    await db().updateTable("inbox_item").set({ status: "Started" }).where("id", "in", ["b1", "b2", "b5", "b8", "b13"]).execute();
    await db().deleteFrom("inbox_item").where("id", "in", ["b21", "b35"]).execute();
    await db().updateTable("document").set({ dms_status: "succeeded" }).where("id", "in", ["db4", "db6"]).execute();
    await db().insertInto("case_timekeeper").values({ case_id: ids.A1!, timekeeper_id: ids.bob!, firm_id: firmId }).execute();
    const zones = ["America/New_York", "Asia/Kathmandu"];
    const periods = ["today", "last_7_days", "last_month", "last_year", "all_time", "custom&from=2025-10-31&to=2025-11-02"];
    const answers = async () => {
      const all: unknown[] = [];
      for (const zone of zones) {
        await db().updateTable("firm").set({ default_time_zone: zone }).where("id", "=", firmId).execute();
        for (const period of periods) all.push(await dashboard(`period=${period}`));
      }
      return all;
    };
    const pending = async () => {
      let rows = 0;
      for (const name of ["notice", "quarter", "key", "document"]) rows += await rowsIn(`dashboard_${name}_pending`);
      return rows;
    };
    const before = await answers();
    expect(await pending()).toBeGreaterThan(0);

    // The compaction's transaction is left open while the dashboard reads: its reads see the
    // pending rows not yet deleted and the count rows not yet added, then all of it at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let moved!: () => void;
    const compacted = new Promise<void>((resolve) => (moved = resolve));
    const compaction = db()
      .transaction()
      .execute(async (trx) => {
        expect(await compactCountsIn(trx, Infinity)).toBe(true);
        moved();
        await held;
      });
    await compacted;
    expect(await pending()).toBeGreaterThan(0);
    expect(await answers()).toEqual(before);
    release();
    await compaction;
    expect(await pending()).toBe(0);
    expect(await answers()).toEqual(before);
    // Every bucket is one row now.
    const keys = await sql<{ n: number }>`select count(*) as n from (select distinct firm_id, level, bucket, status from dashboard_notice_count) k`.execute(
      db(),
    );
    expect(await rowsIn("dashboard_notice_count")).toBe(Number(keys.rows[0]!.n));
    await db().deleteFrom("case_timekeeper").where("case_id", "=", ids.A1!).where("timekeeper_id", "=", ids.bob!).execute();
    await db().updateTable("firm").set({ default_time_zone: "America/New_York" }).where("id", "=", firmId).execute();
  });
});
