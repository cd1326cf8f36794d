import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, testClock, useApi, creator } from "./harness";

// Every count below is worked out by hand from the rows this file inserts. The firm is in New
// York; "now" is Tuesday 10 March 2026, 12:00 EDT, two days after clocks went forward.
const NOW = Date.parse("2026-03-10T16:00:00Z");
const CACHE_SECONDS = 30;

interface Item {
  id: string;
  at: string;
  status: string;
  caseKey?: "A1" | "B1" | "A2";
}

// Local (New York) time of each, for the hand counts: 1 today 10:30; 2 yesterday 23:30;
// 3 8 Mar 01:30 EST (before the change); 4 8 Mar 04:30 EDT; 5 20 Feb 10:00; 6 1 Dec 00:30;
// 7 29 Nov 23:30; 8 June 2024, 08:00.
const ITEMS: Item[] = [
  { id: "n1", at: "2026-03-10T14:30:00Z", status: "Succeeded", caseKey: "A1" },
  { id: "n2", at: "2026-03-10T03:30:00Z", status: "Failed", caseKey: "A1" },
  { id: "n3", at: "2026-03-08T06:30:00Z", status: "Succeeded", caseKey: "B1" },
  { id: "n4", at: "2026-03-08T08:30:00Z", status: "Succeeded", caseKey: "B1" },
  { id: "n5", at: "2026-02-20T15:00:00Z", status: "Action Required" },
  { id: "n6", at: "2025-12-01T05:30:00Z", status: "Succeeded", caseKey: "A2" },
  { id: "n7", at: "2025-11-30T04:30:00Z", status: "New", caseKey: "A1" },
  { id: "n8", at: "2024-06-01T12:00:00Z", status: "Succeeded", caseKey: "A1" },
];

// Documents: d1 on notice 1 (fetched and stored); d2, d3 on notice 3 (fetch failed; sealed and
// restricted); d4 on notice 6 (fetched, the DMS failed).
const DOCUMENTS = [
  { id: "d1", item: "n1", at: "2026-03-10T14:31:00Z", fetch_status: "fetched", dms_status: "succeeded", sealed: 0 },
  { id: "d2", item: "n3", at: "2026-03-08T06:31:00Z", fetch_status: "failed", dms_status: "new", sealed: 0 },
  { id: "d3", item: "n3", at: "2026-03-08T06:31:00Z", fetch_status: "restricted", dms_status: "new", sealed: 1 },
  { id: "d4", item: "n6", at: "2025-12-01T05:31:00Z", fetch_status: "fetched", dms_status: "failed", sealed: 0 },
];

const counts = (list: { key: string; count: number }[]) => Object.fromEntries(list.filter((c) => c.count > 0).map((c) => [c.key, c.count]));
const ranked = (list: { name: string; count: number }[]) => list.map((r) => [r.name, r.count]);

describe.each(backends)("the dashboard's counts (%s)", (backend) => {
  const clock = testClock(NOW);
  const server = useApi({ backend, clock });
  const sessionOf = sessionsOf(server, clock);
  const ids: Record<string, string> = {};
  let firmId = 0;

  const dashboard = async (query: string, email: string = DEMO.admin) =>
    api(server().url, (await sessionOf(email)).access_token).get(`/api/v1/dashboard?${query}`);

  beforeAll(async () => {
    const db = server().ctx.database.db;
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    firmId = (await db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    await db.updateTable("firm").set({ default_time_zone: "America/New_York" }).where("id", "=", firmId).execute();
    const post = creator(admin);
    ids.ann = await post("/api/v1/timekeeper", { full_name: "Ann Archer", email: "ann@lawfirm.test" });
    ids.bob = await post("/api/v1/timekeeper", { full_name: "Bob Baker", email: "bob@lawfirm.test" });
    ids.X = await post("/api/v1/client", { name: "Xavier Holdings", unique_key: "C-X" });
    ids.Y = await post("/api/v1/client", { name: "Yellow Ltd", unique_key: "C-Y" });
    ids.A = await post("/api/v1/matter", { name: "Matter A", unique_key: "M-A", client_id: ids.X });
    ids.B = await post("/api/v1/matter", { name: "Matter B", unique_key: "M-B", client_id: ids.Y });
    ids.C = await post("/api/v1/matter", { name: "Matter C", unique_key: "M-C", client_id: ids.X });
    const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. dashboard", ecfx_jurisdictions: ["nysd"] });
    const courtCase = (name: string, number: string, matter: string, timekeepers: string[]) =>
      post("/api/v1/case", { name, case_number: number, matter_id: matter, jurisdiction_id: jurisdiction, assigned_timekeepers: timekeepers });
    ids.A1 = await courtCase("A one", "1:26-cv-00001", ids.A, [ids.ann]);
    ids.B1 = await courtCase("B one", "1:26-cv-00002", ids.B, [ids.bob]);
    ids.A2 = await courtCase("A two", "1:26-cv-00003", ids.C, [ids.ann, ids.bob]);

    const raw = Buffer.from("From: clerk@court.test\r\n\r\nA notice.\r\n");
    for (const item of ITEMS) {
      const at = Date.parse(item.at);
      await db
        .insertInto("inbox_item")
        .values({
          id: item.id,
          firm_id: firmId,
          created_at: at,
          updated_at: at,
          status: item.status,
          source: "test",
          raw_content: raw,
          raw_size: raw.length,
          case_id: item.caseKey ? ids[item.caseKey]! : null,
        } as never)
        .execute();
    }
    for (const item of ITEMS.filter((i) => i.caseKey)) {
      const at = Date.parse(item.at);
      await db
        .insertInto("envelope")
        .values({
          id: `e-${item.id}`,
          firm_id: firmId,
          inbox_item_id: item.id,
          case_id: ids[item.caseKey!]!,
          ecfx_jurisdiction_id: null,
          name: "Order",
          date: null,
          court_envelope_id: null,
          filed_by: "",
          service_contacts: "[]",
          docket_text: "",
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    for (const [n, d] of DOCUMENTS.entries()) {
      await db
        .insertInto("document")
        .values({
          id: d.id,
          firm_id: firmId,
          envelope_id: `e-${d.item}`,
          processed_from_id: d.item,
          number: n + 1,
          name: "Doc",
          sealed: d.sealed,
          fetch_status: d.fetch_status,
          dms_status: d.dms_status,
          created_at: Date.parse(d.at),
        } as never)
        .execute();
    }
  });

  // Each test starts past the cache's life, so it reads what the rows say now.
  beforeEach(() => clock.advance(CACHE_SECONDS * 1000 + 1));

  it("counts the notices of each period in the firm's time zone", async () => {
    const totals: Record<string, number> = {};
    for (const period of ["today", "yesterday", "last_7_days", "last_month", "3_months", "6_months", "last_year", "all_time"]) {
      const res = await dashboard(`period=${period}`);
      expect(res.status, period).toBe(200);
      totals[period] = res.body.notifications.total;
    }
    expect(totals).toEqual({ today: 1, yesterday: 1, last_7_days: 4, last_month: 5, "3_months": 5, "6_months": 7, last_year: 7, all_time: 8 });
    // Notice 7 came on 29 November in New York (30 November in UTC).
    const custom = async (from: string, to: string) => (await dashboard(`period=custom&from=${from}&to=${to}`)).body.notifications.total;
    expect(await custom("2025-11-29", "2025-12-01")).toBe(2);
    expect(await custom("2025-11-30", "2025-11-30")).toBe(0);
    expect(await custom("2025-11-29", "2025-11-29")).toBe(1);
  });

  it("counts notices by state, by local hour across the change to summer time, and by month", async () => {
    const res = await dashboard("period=6_months");
    const n = res.body.notifications;
    expect(n.by_state.map((s: { key: string }) => s.key)).toEqual([
      "New",
      "Started",
      "Retry",
      "Failed",
      "Manual",
      "Action Required",
      "Canceled",
      "Succeeded",
      "Post Processing",
    ]);
    expect(counts(n.by_state)).toEqual({ Succeeded: 4, Failed: 1, "Action Required": 1, New: 1 });
    expect(n.by_hour).toHaveLength(24);
    expect(counts(n.by_hour)).toEqual({ "10": 2, "23": 2, "01": 1, "04": 1, "00": 1 });
    expect(n.by_month).toEqual([
      { key: "2025-09", count: 0 },
      { key: "2025-10", count: 0 },
      { key: "2025-11", count: 1 },
      { key: "2025-12", count: 1 },
      { key: "2026-01", count: 0 },
      { key: "2026-02", count: 1 },
      { key: "2026-03", count: 4 },
    ]);
    expect(res.body.period).toMatchObject({
      name: "6_months",
      from: Date.parse("2025-09-11T04:00:00Z"),
      to: Date.parse("2026-03-11T04:00:00Z"),
      time_zone: "America/New_York",
    });
  });

  it("ranks clients, matters and timekeepers by notices", async () => {
    const res = await dashboard("period=6_months");
    expect(ranked(res.body.top_matters)).toEqual([
      ["Matter A", 3],
      ["Matter B", 2],
      ["Matter C", 1],
    ]);
    expect(ranked(res.body.top_clients)).toEqual([
      ["Xavier Holdings", 4],
      ["Yellow Ltd", 2],
    ]);
    expect(ranked(res.body.top_timekeepers)).toEqual([
      ["Ann Archer", 4],
      ["Bob Baker", 3],
    ]);
    expect(res.body.top_matters[0].id).toBe(ids.A);
    const today = await dashboard("period=today");
    expect(ranked(today.body.top_clients)).toEqual([["Xavier Holdings", 1]]);
  });

  it("counts documents received, fetched, stored, failed and sealed or restricted", async () => {
    expect((await dashboard("period=last_7_days")).body.documents).toEqual({ received: 3, fetched: 1, stored: 1, failed: 1, sealed: 1 });
    expect((await dashboard("period=6_months")).body.documents).toEqual({ received: 4, fetched: 2, stored: 1, failed: 2, sealed: 1 });
    expect((await dashboard("period=today")).body.documents).toEqual({ received: 1, fetched: 1, stored: 1, failed: 0, sealed: 0 });
  });

  it("works out the time saved from the firm's minutes per notice, which the firm settings change", async () => {
    expect((await dashboard("period=6_months")).body.time_saved).toEqual({ notices: 4, minutes_per_notice: 5, minutes: 20 });
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    const firm = (await admin.get("/api/v1/firm")).body;
    expect(firm.minutes_saved_per_notice).toBe(5);
    const { id: _id, created_at: _c, updated_at: _u, has_logo: _l, internal_walls_state: _w, ...update } = firm;
    expect((await admin.put(`/api/v1/firm/${firmId}`, { ...update, minutes_saved_per_notice: 1441 })).status).toBe(400);
    const saved = await admin.put(`/api/v1/firm/${firmId}`, { ...update, minutes_saved_per_notice: 12 });
    expect(saved.status).toBe(200);
    expect(saved.body.minutes_saved_per_notice).toBe(12);
    // A save that does not name the field keeps it.
    const { minutes_saved_per_notice: _m, ...withoutMinutes } = update;
    expect((await admin.put(`/api/v1/firm/${firmId}`, withoutMinutes)).body.minutes_saved_per_notice).toBe(12);
    expect((await dashboard("period=6_months")).body.time_saved).toEqual({ notices: 4, minutes_per_notice: 12, minutes: 48 });
  });

  it("keeps an answer for a short time, then counts again", async () => {
    expect((await dashboard("period=today")).body.notifications.total).toBe(1);
    const db = server().ctx.database.db;
    const at = NOW - 60_000;
    const raw = Buffer.from("x");
    await db
      .insertInto("inbox_item")
      .values({
        id: "late",
        firm_id: firmId,
        created_at: at,
        updated_at: at,
        status: "New",
        source: "test",
        raw_content: raw,
        raw_size: 1,
        case_id: null,
      } as never)
      .execute();
    expect((await dashboard("period=today")).body.notifications.total).toBe(1);
    clock.advance(CACHE_SECONDS * 1000 + 1);
    expect((await dashboard("period=today")).body.notifications.total).toBe(2);
    await db.deleteFrom("inbox_item").where("id", "=", "late").execute();
  });

  it("refuses a period it does not know, and a custom period without two dates in order", async () => {
    const one = await dashboard("period=custom&from=2026-01-01");
    expect(one.status).toBe(400);
    expect(one.body.message).toBe("Select two dates");
    expect((await dashboard("period=custom&from=2026-02-30&to=2026-03-01")).body.message).toBe("Select two dates");
    const reversed = await dashboard("period=custom&from=2026-03-01&to=2026-02-01");
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe("The first date must not be after the second.");
    const unknown = await dashboard("period=fortnight");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Choose one of the listed periods.");
    expect((await dashboard("")).body.period.name).toBe("last_month");
  });

  it("leaves out what the role's dashboard field levels deny, and refuses a role without the dashboard", async () => {
    const db = server().ctx.database.db;
    const role = await db.selectFrom("app_user").select("security_role_id").where("email", "=", DEMO.viewOnly).executeTakeFirstOrThrow();
    const stored = await db.selectFrom("security_role").select("permissions").where("id", "=", role.security_role_id).executeTakeFirstOrThrow();
    const setDashboard = (dashboardPerms: unknown) =>
      db
        .updateTable("security_role")
        .set({ permissions: JSON.stringify({ ...JSON.parse(stored.permissions), dashboard: dashboardPerms }) })
        .where("id", "=", role.security_role_id)
        .execute();
    await setDashboard({ access: "READ", fields: { notifications: "DENY", top_client: "DENY" } });
    const limited = await dashboard("period=6_months", DEMO.viewOnly);
    expect(limited.status).toBe(200);
    expect(Object.keys(limited.body).sort()).toEqual(["documents", "period", "top_matters", "top_timekeepers"]);
    await setDashboard({ access: "DENY" });
    expect((await dashboard("period=6_months", DEMO.viewOnly)).status).toBe(403);
    await db.updateTable("security_role").set({ permissions: stored.permissions }).where("id", "=", role.security_role_id).execute();
  });

  it("counts for a user linked to a timekeeper only what the ethical walls leave them", async () => {
    const db = server().ctx.database.db;
    await db.updateTable("app_user").set({ timekeeper_id: ids.bob! }).where("email", "=", DEMO.manager).execute();
    const wall = (id: string, type: string, where: { matter_id?: string; client_id?: string }, timekeeper: string) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto("ethical_wall")
          .values({
            id,
            firm_id: firmId,
            name: id,
            type,
            matter_id: where.matter_id ?? null,
            client_id: where.client_id ?? null,
            created_at: NOW,
            updated_at: NOW,
            reference_id: null,
            unique_key: null,
          })
          .execute();
        await trx.insertInto("ethical_wall_timekeeper").values({ wall_id: id, timekeeper_id: timekeeper, firm_id: firmId }).execute();
      });
    await wall("w-b", "exclusionary", { matter_id: ids.B! }, ids.bob!);
    // Walls hold only while the firm has them on.
    expect((await dashboard("period=6_months", DEMO.manager)).body.notifications.total).toBe(7);
    await db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    clock.advance(CACHE_SECONDS * 1000 + 1);

    const walled = (await dashboard("period=6_months", DEMO.manager)).body;
    expect(walled.notifications.total).toBe(5);
    expect(counts(walled.notifications.by_state)).toEqual({ Succeeded: 2, Failed: 1, "Action Required": 1, New: 1 });
    expect(walled.documents).toEqual({ received: 2, fetched: 2, stored: 1, failed: 1, sealed: 0 });
    expect(ranked(walled.top_matters)).toEqual([
      ["Matter A", 3],
      ["Matter C", 1],
    ]);
    expect(ranked(walled.top_timekeepers)).toEqual([
      ["Ann Archer", 4],
      ["Bob Baker", 1],
    ]);
    expect(walled.time_saved.notices).toBe(2);
    // The administrator, who is no timekeeper, still counts everything.
    expect((await dashboard("period=6_months")).body.notifications.total).toBe(7);

    // An inclusionary wall on client X that lists only Ann keeps Bob out of matters A and C too.
    await wall("w-x", "inclusionary", { client_id: ids.X! }, ids.ann!);
    clock.advance(CACHE_SECONDS * 1000 + 1);
    const alone = (await dashboard("period=6_months", DEMO.manager)).body;
    expect(alone.notifications.total).toBe(1);
    expect(alone.top_matters).toEqual([]);
    expect(alone.documents.received).toBe(0);

    await db.updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firmId).execute();
    await db.deleteFrom("ethical_wall_timekeeper").execute();
    await db.deleteFrom("ethical_wall").execute();
    await db.updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.manager).execute();
  });

  it("never counts another firm's notices", async () => {
    const res = await dashboard("period=all_time", DEMO.secondAdmin);
    expect(res.status).toBe(200);
    expect(res.body.notifications.total).toBe(0);
    expect(res.body.notifications.by_month).toEqual([]);
    expect(res.body.top_clients).toEqual([]);
    expect(res.body.documents.received).toBe(0);
  });
});
