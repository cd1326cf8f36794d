import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/database";
import { normaliseCaseNumber } from "../../server/resources/case-number";
import { ANCHOR_EVERY } from "../../server/resources/kept-pages";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import { reindex } from "../../server/resources/repository";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";

// A page of a list is the page OFFSET gives, row for row, whatever was written since its anchors
// or its keys were found (by another connection here, as any program could), with ties on the
// sort key, rows without a value, filters and walls: whether a page starts from an anchor is not
// visible in the answers, nor whether a page asked again is read by its kept keys.

const ROWS = 3 * ANCHOR_EVERY + 150;
const CASES = SERVER_RESOURCES.find((r) => r.table === "court_case")!;

describe.each(backends)("kept pages (%s)", { timeout: 60_000 }, (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  let other: Database;
  let firmId = 0;
  let matterId = "";

  const pageOf = async (query: string, email: string = DEMO.admin) => {
    const res = await api(server().url, (await sessionOf(email)).access_token).get(`/api/v1/case/search?${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as { id: string }[]).map((r) => r.id);
  };
  /** The same page by OFFSET alone, as the product orders it (ties by the row's key). */
  const expected = async (field: string, descending: boolean, offset: number, max: number, condition = sql`1 = 1`) => {
    const direction = sql.raw(descending ? "desc" : "asc");
    const key = sql.raw(backend === "sqlite" ? "rowid" : "id");
    const found = await sql<{ id: string }>`select id from court_case where firm_id = ${firmId} and ${condition}
      order by ${sql.ref(field)} ${direction}, ${key} ${direction} limit ${max} offset ${offset}`.execute(server().ctx.database.db);
    return found.rows.map((r) => r.id);
  };
  const total = async (condition = sql`1 = 1`) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from court_case where firm_id = ${firmId} and ${condition}`.execute(server().ctx.database.db)).rows[0]!.n,
    );

  /**
   * Every page boundary around the anchors, pages across the first and the last row without a
   * filing date, the last page and past it, for each sort.
   */
  const checkSorts = async (sorts: string[]) => {
    const all = await total();
    const undated = await total(sql`filed_date is null`);
    const offsets = [
      0,
      ANCHOR_EVERY - 1,
      ANCHOR_EVERY,
      ANCHOR_EVERY + 1,
      2 * ANCHOR_EVERY - 25,
      2 * ANCHOR_EVERY + 37,
      undated - 20,
      all - undated - 20,
      all - 30,
      all - 5,
      all + 10,
    ];
    for (const sort of sorts) {
      const descending = sort.startsWith("-");
      for (const offset of offsets) {
        const page = await pageOf(`max=50&offset=${offset}&sort=${sort}`);
        expect(page, `${sort} at ${offset}`).toEqual(await expected(sort.replace("-", ""), descending, offset, 50));
      }
    }
  };

  const caseValues = (id: string, number: string, filed: string | null) => {
    const now = Date.now();
    return {
      id,
      firm_id: firmId,
      name: `Anchored v. ${id}`,
      case_number: number,
      case_number_normalized: normaliseCaseNumber(number),
      matter_id: matterId,
      filed_date: filed,
      created_at: now,
      updated_at: now,
    };
  };

  beforeAll(async () => {
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    const ctx = server().ctx;
    firmId = (await ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    const client = await admin("/api/v1/client", { name: "Anchored Client", unique_key: "C-ANCHOR" });
    matterId = await admin("/api/v1/matter", { name: "Anchored matter", unique_key: "M-ANCHOR", client_id: client });
    other = openDatabase(ctx.config.databaseUrl);
    // Three cases per number (ties), and every third case without a filing date.
    const rows = Array.from({ length: ROWS }, (_, i) =>
      caseValues(
        `anchor-${String(i).padStart(5, "0")}`,
        `1:25-cv-${String(i % Math.ceil(ROWS / 3)).padStart(5, "0")}`,
        i % 3 === 0 ? null : `2025-${String((i % 12) + 1).padStart(2, "0")}-01`,
      ),
    );
    for (let i = 0; i < rows.length; i += 200)
      await other.db
        .insertInto("court_case")
        .values(rows.slice(i, i + 200) as never)
        .execute();
  });

  afterAll(async () => {
    await other?.close();
  });

  it("answers every page as OFFSET does, with ties and rows without a value, in both directions", async () => {
    await checkSorts(["-case_number", "case_number", "-filed_date", "filed_date", "status", "-name"]);
    // Asked again: from the anchors now kept.
    await checkSorts(["-case_number", "filed_date"]);
  });

  it("follows another connection's inserts and deletes before the page, and a filter", async () => {
    await checkSorts(["-case_number", "case_number"]);
    // Rows that sort first in both directions' pages, and rows removed from the first anchor's span.
    await other.db
      .insertInto("court_case")
      .values([caseValues("anchor-new-1", "9:99-cv-99999", null), caseValues("anchor-new-2", "0:00-cv-00000", "2020-01-01")] as never)
      .execute();
    await checkSorts(["-case_number", "case_number", "filed_date"]);
    await other.db.deleteFrom("court_case").where("id", "in", ["anchor-00007", "anchor-00100", "anchor-00200"]).execute();
    await checkSorts(["-case_number", "case_number", "-filed_date"]);
    await other.db.updateTable("court_case").set({ case_number: "9:99-cv-99998" }).where("id", "=", "anchor-00300").execute();
    await checkSorts(["-case_number"]);
    const inMatter = sql`matter_id = ${matterId}`;
    for (const offset of [ANCHOR_EVERY + 3, 2 * ANCHOR_EVERY + 100]) {
      const page = await pageOf(`max=25&offset=${offset}&sort=-case_number&filter.matter_id=${matterId}`);
      expect(page).toEqual(await expected("case_number", true, offset, 25, inMatter));
    }
  });

  it("answers a search asked again with the rows it finds now, after another connection's writes", async () => {
    const indexed = (id: string, number: string) =>
      other.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("court_case")
          .values({ ...caseValues(id, number, null), name: `Kept v. ${id}` } as never)
          .execute();
        await reindex(trx as never, { database: other } as never, CASES, { firmId }, id);
      });
    for (let i = 0; i < 12; i++) await indexed(`kept-${i}`, `1:24-cv-${String(i).padStart(5, "0")}`);
    const text = async () => pageOf("max=10&freeText=Kept%20v&sort=-case_number");
    const matching = sql`name like 'Kept v.%'`;
    const first = await text();
    expect(first).toEqual(await expected("case_number", true, 0, 10, matching));
    expect(await text()).toEqual(first);
    await indexed("kept-new", "9:99-cv-99997");
    const after = await text();
    expect(after).toEqual(await expected("case_number", true, 0, 10, matching));
    expect(after).toContain("kept-new");
    await other.db.updateTable("court_case").set({ case_number: "0:00-cv-00001" }).where("id", "=", "kept-new").execute();
    expect(await text()).toEqual(await expected("case_number", true, 0, 10, matching));
    expect(await text()).not.toContain("kept-new");
  });

  it("gives a walled user the same pages: walls keep notices, not cases", async () => {
    const db = server().ctx.database.db;
    const keeper = await creator(api(server().url, (await sessionOf(DEMO.admin)).access_token))("/api/v1/timekeeper", {
      full_name: "Anchored Keeper",
      email: "anchored@lawfirm.test",
    });
    const now = Date.now();
    await db.updateTable("app_user").set({ timekeeper_id: keeper }).where("email", "=", DEMO.manager).execute();
    await db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    await other.db
      .insertInto("ethical_wall")
      .values({
        id: "anchor-wall",
        firm_id: firmId,
        name: "Anchored wall",
        type: "exclusionary",
        matter_id: matterId,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    await other.db
      .insertInto("ethical_wall_timekeeper")
      .values({ wall_id: "anchor-wall", timekeeper_id: keeper, firm_id: firmId } as never)
      .execute();
    const offset = 2 * ANCHOR_EVERY + 11;
    expect(await pageOf(`max=50&offset=${offset}&sort=-case_number`, DEMO.manager)).toEqual(await expected("case_number", true, offset, 50));
    await other.db.deleteFrom("ethical_wall_timekeeper").where("wall_id", "=", "anchor-wall").execute();
    await other.db.deleteFrom("ethical_wall").where("id", "=", "anchor-wall").execute();
    await db.updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firmId).execute();
  });
});
