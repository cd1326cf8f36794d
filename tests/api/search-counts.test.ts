import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactDashboardCounts } from "../../server/dashboard/compact-counts";
import { type Database, openDatabase } from "../../server/db/database";
import { normaliseCaseNumber } from "../../server/resources/case-number";
import { reindex } from "../../server/resources/repository";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";
import { insertNoticeRow } from "./notice-rows";

// A search's x-total-count is exact whatever was written, by this process or by another one on
// the same database (a second connection here, writing rows the way any program could), and
// whatever walls hold: whether the count is kept by the database, kept against the table's
// version or counted again is not visible in the answers.

const CASES = SERVER_RESOURCES.find((r) => r.table === "court_case")!;

describe.each(backends)("search counts (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  let other: Database;
  let firmId = 0;
  let matterId = "";
  const ids: Record<string, string> = {};
  const caseBody = (name: string, number: string) => ({
    name,
    case_number: number,
    matter_id: matterId,
    jurisdiction_id: ids.jurisdiction,
    assigned_timekeepers: [ids.keeper],
  });

  const totalOf = async (path: string, email: string = DEMO.admin) => {
    const res = await api(server().url, (await sessionOf(email)).access_token).get(path);
    expect(res.status, res.text).toBe(200);
    return Number(res.headers.get("x-total-count"));
  };
  const cases = () => totalOf("/api/v1/case/search?max=1");
  const zephyr = () => totalOf("/api/v1/case/search?max=1&freeText=Zephyr");
  const inMatter = () => totalOf(`/api/v1/case/search?max=1&filter.matter_id=${matterId}`);
  /** What the database holds, counted afresh. */
  const counted = async (condition = sql`1 = 1`) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from court_case where firm_id = ${firmId} and ${condition}`.execute(server().ctx.database.db)).rows[0]!.n,
    );

  const caseRow = (trx: Database["db"], id: string, name: string) => {
    const now = Date.now();
    const number = `1:26-cv-${id.slice(-5)}`;
    return trx
      .insertInto("court_case")
      .values({
        id,
        firm_id: firmId,
        name,
        case_number: number,
        case_number_normalized: normaliseCaseNumber(number),
        matter_id: matterId,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  };
  /** A case written by the other connection, indexed for free text as the product does. */
  const insertElsewhere = (id: string, name: string) =>
    other.db.transaction().execute(async (trx) => {
      await caseRow(trx, id, name);
      await reindex(trx as never, { database: other } as never, CASES, { firmId }, id);
    });

  beforeAll(async () => {
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    const ctx = server().ctx;
    firmId = (await ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    const client = await admin("/api/v1/client", { name: "Counted Client", unique_key: "C-COUNT" });
    matterId = await admin("/api/v1/matter", { name: "Counted matter", unique_key: "M-COUNT", client_id: client });
    ids.keeper = await admin("/api/v1/timekeeper", { full_name: "Wanda Walled", email: "wanda@lawfirm.test" });
    ids.jurisdiction = await admin("/api/v1/jurisdiction", { name: "S.D.N.Y. counted", ecfx_jurisdictions: ["nysd"] });
    ids.one = await admin("/api/v1/case", caseBody("Zephyr v. Able", "1:26-cv-01000"));
    ids.two = await admin("/api/v1/case", caseBody("Zephyr v. Baker", "1:26-cv-02000"));
    ids.three = await admin("/api/v1/case", caseBody("Quill v. Carter", "1:26-cv-03000"));
    const url = ctx.config.databaseUrl;
    other = openDatabase(url);
  });

  afterAll(async () => {
    await other?.close();
  });

  it("answers the rows there are, asked twice, after the product's own writes", async () => {
    const all = await counted();
    expect(await cases()).toBe(all);
    expect(await cases()).toBe(all);
    expect(await zephyr()).toBe(2);
    expect(await zephyr()).toBe(2);
    expect(await inMatter()).toBe(3);
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    ids.four = await admin("/api/v1/case", caseBody("Zephyr v. Dunn", "1:26-cv-04000"));
    expect(await cases()).toBe(all + 1);
    // A page past the last row has no state to read the count from: it is counted on its own.
    expect(await totalOf("/api/v1/case/search?max=1&offset=100000")).toBe(all + 1);
    expect(await zephyr()).toBe(3);
    expect(await inMatter()).toBe(4);
    const renamed = await api(server().url, (await sessionOf(DEMO.admin)).access_token).put(`/api/v1/case/${ids.three}`, { name: "Zephyr v. Carter" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await zephyr()).toBe(4);
    expect(await cases()).toBe(all + 1);
    const removed = await api(server().url, (await sessionOf(DEMO.admin)).access_token).request("DELETE", `/api/v1/case/${ids.four}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect(await cases()).toBe(all);
    expect(await zephyr()).toBe(3);
    expect(await inMatter()).toBe(3);
  });

  it("follows writes made by another connection: inserts, renames and deletes", async () => {
    const all = await counted();
    const before = await zephyr();
    expect(await cases()).toBe(all);
    await insertElsewhere("count-elsewhere-00001", "Zephyr v. Elsewhere");
    expect(await cases()).toBe(all + 1);
    expect(await zephyr()).toBe(before + 1);
    expect(await inMatter()).toBe(4);
    await other.db.updateTable("court_case").set({ name: "Quill v. Elsewhere" }).where("id", "=", "count-elsewhere-00001").execute();
    await reindex(other.db as never, { database: other } as never, CASES, { firmId }, "count-elsewhere-00001");
    expect(await zephyr()).toBe(before);
    expect(await cases()).toBe(all + 1);
    if (backend === "sqlite") {
      await sql`delete from court_case_fts where rowid = (select rowid from court_case where id = ${"count-elsewhere-00001"})`.execute(other.db);
    }
    await other.db.deleteFrom("court_case").where("id", "=", "count-elsewhere-00001").execute();
    expect(await cases()).toBe(all);
    expect(await inMatter()).toBe(3);
    expect(await cases()).toBe(await counted());
  });

  it.runIf(backend === "postgres")("counts a transaction that commits after a later one, and after the kept rows are folded", async () => {
    const all = await counted();
    expect(await cases()).toBe(all);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const inserted = new Promise<void>((resolve) => (written = resolve));
    // The first transaction takes its count row's version first and commits last.
    const first = other.db.transaction().execute(async (trx) => {
      await caseRow(trx, "count-late-00001", "Late one");
      written();
      await held;
    });
    await inserted;
    await insertElsewhere("count-late-00002", "Zephyr v. Later");
    expect(await cases()).toBe(all + 1);
    expect(await zephyr()).toBe(4);
    release();
    await first;
    expect(await cases()).toBe(all + 2);
    expect(await compactDashboardCounts(server().ctx.database, Infinity)).toBe(true);
    const kept = await sql<{
      parts: number;
    }>`select count(*)::int as parts from firm_row_count where firm_id = ${firmId} and table_name = 'court_case'`.execute(server().ctx.database.db);
    expect(kept.rows[0]!.parts).toBe(1);
    expect(await cases()).toBe(all + 2);
    expect(await zephyr()).toBe(4);
    await other.db.deleteFrom("court_case").where("id", "in", ["count-late-00001", "count-late-00002"]).execute();
    await compactDashboardCounts(server().ctx.database, Infinity);
    expect(await cases()).toBe(all);
    expect(await zephyr()).toBe(3);
  });

  it("keeps counting what walls hide: cases stay listed, their notices do not", async () => {
    const db = server().ctx.database.db;
    const keeper = ids.keeper;
    const now = Date.now();
    for (const [k, caseId] of [ids.one, ids.two, null].entries()) {
      await insertNoticeRow(db, { id: `count-notice-${k}`, firmId, at: now, status: "New", caseId });
    }
    await db.updateTable("app_user").set({ timekeeper_id: keeper }).where("email", "=", DEMO.manager).execute();
    await db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    const notices = () => totalOf("/api/v1/inbox-item/search?max=1", DEMO.manager);
    const allCases = await counted();
    const allNotices = await notices();
    expect(await totalOf("/api/v1/case/search?max=1", DEMO.manager)).toBe(allCases);
    await other.db
      .insertInto("ethical_wall")
      .values({ id: "count-wall", firm_id: firmId, name: "Counted wall", type: "exclusionary", matter_id: matterId, created_at: now, updated_at: now } as never)
      .execute();
    await other.db
      .insertInto("ethical_wall_timekeeper")
      .values({ wall_id: "count-wall", timekeeper_id: keeper, firm_id: firmId } as never)
      .execute();
    expect(await notices()).toBe(allNotices - 2);
    expect(await totalOf("/api/v1/case/search?max=1", DEMO.manager)).toBe(allCases);
    expect(await totalOf("/api/v1/case/search?max=1&freeText=Zephyr", DEMO.manager)).toBe(3);
    await other.db.deleteFrom("ethical_wall_timekeeper").where("wall_id", "=", "count-wall").execute();
    await other.db.deleteFrom("ethical_wall").where("id", "=", "count-wall").execute();
    expect(await notices()).toBe(allNotices);
  });
});
