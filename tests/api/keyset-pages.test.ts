import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { normaliseCaseNumber } from "../../server/resources/case-number";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";
import { insertNoticeRow } from "./notice-rows";

// A page reached by the pager's previous and next links (a cursor beside the page number) holds
// the rows the same page holds by its number alone (OFFSET), in every order, with ties on the sort
// key, rows without a value, filters and walls; a cursor made for another page or another search
// is ignored, and one that is no cursor is refused.

const ROWS = 260;
const MAX = 25;

interface Answer {
  ids: string[];
  total: number;
  previous: string | null;
  next: string | null;
}

describe.each(backends)("keyset pages (%s)", { timeout: 120_000 }, (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  let firmId = 0;
  let matterId = "";
  let otherMatterId = "";

  const ask = async (resource: string, query: string, email: string = DEMO.admin): Promise<Answer> => {
    const res = await api(server().url, (await sessionOf(email)).access_token).get(`/api/v1/${resource}/search?${query}`);
    expect(res.status, res.text).toBe(200);
    return {
      ids: (res.body as { id: string }[]).map((r) => r.id),
      total: Number(res.headers.get("x-total-count")),
      previous: res.headers.get("x-previous-cursor"),
      next: res.headers.get("x-next-cursor"),
    };
  };

  /**
   * Walks the list with the next links from page 1 to the last page, then back with the previous
   * links, checking each page against the same page asked by its number alone. Answers every row seen.
   */
  const walk = async (resource: string, query: string, email: string = DEMO.admin): Promise<string[]> => {
    const byNumber = (offset: number) => ask(resource, `${query}&max=${MAX}&offset=${offset}`, email);
    let page = await byNumber(0);
    const pages = Math.ceil(page.total / MAX);
    const seen = [...page.ids];
    for (let n = 1; n < pages; n++) {
      expect(page.next, `${query}: a next link from page ${n}`).toBeTruthy();
      page = await ask(resource, `${query}&max=${MAX}&offset=${n * MAX}&after=${page.next}`, email);
      expect(page.ids, `${query}: page ${n + 1} by its next link`).toEqual((await byNumber(n * MAX)).ids);
      seen.push(...page.ids);
    }
    expect(page.next, `${query}: no next link from the last page`).toBeNull();
    for (let n = pages - 2; n >= 0; n--) {
      expect(page.previous, `${query}: a previous link before page ${n + 2}`).toBeTruthy();
      page = await ask(resource, `${query}&max=${MAX}&offset=${n * MAX}&before=${page.previous}`, email);
      expect(page.ids, `${query}: page ${n + 1} by its previous link`).toEqual((await byNumber(n * MAX)).ids);
    }
    expect(page.previous).toBeNull();
    expect(new Set(seen).size, `${query}: every row once`).toBe(seen.length);
    return seen;
  };

  /** The cases of the firm matching `condition`, as the product orders them (ties by the row's key). */
  const expectedCases = async (order: string, condition = sql`1 = 1`) => {
    const key = backend === "sqlite" ? "rowid" : "id";
    const found = await sql<{ id: string }>`select id from court_case where firm_id = ${firmId} and ${condition}
      order by ${sql.raw(order.replace("$key", key))}`.execute(server().ctx.database.db);
    return found.rows.map((r) => r.id);
  };

  beforeAll(async () => {
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    const db = server().ctx.database.db;
    firmId = (await db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    const client = await admin("/api/v1/client", { name: "Keyset Client", unique_key: "C-KEYSET" });
    matterId = await admin("/api/v1/matter", { name: "Keyset matter", unique_key: "M-KEYSET", client_id: client });
    otherMatterId = await admin("/api/v1/matter", { name: "Keyset other matter", unique_key: "M-KEYSET-2", client_id: client });
    const now = Date.now();
    // Three cases per number (ties), every third without a filing date, two matters.
    const rows = Array.from({ length: ROWS }, (_, i) => {
      const number = `1:25-cv-${String(i % Math.ceil(ROWS / 3)).padStart(5, "0")}`;
      return {
        id: `keyset-${String(i).padStart(5, "0")}`,
        firm_id: firmId,
        name: `Keyset v. ${i % 7}`,
        case_number: number,
        case_number_normalized: normaliseCaseNumber(number),
        matter_id: i % 4 === 0 ? otherMatterId : matterId,
        filed_date: i % 3 === 0 ? null : `2025-${String((i % 12) + 1).padStart(2, "0")}-01`,
        created_at: now,
        updated_at: now,
      };
    });
    await db
      .insertInto("court_case")
      .values(rows as never)
      .execute();
  });

  it("gives each page by its previous and next links the rows OFFSET gives, in every order", async () => {
    for (const sort of ["-case_number", "case_number", "filed_date", "-filed_date", "-name,filed_date", "filed_date,-case_number"]) {
      await walk("case", `sort=${sort}`);
    }
    const seen = await walk("case", "sort=-filed_date");
    const key = backend === "sqlite" ? "rowid" : "id";
    expect(seen).toEqual(await expectedCases(`filed_date desc, ${key} desc`));
  });

  it("pages a filtered list and a search by text the same way", async () => {
    const seen = await walk("case", `sort=filed_date&filter.matter_id=${otherMatterId}`);
    const key = backend === "sqlite" ? "rowid" : "id";
    expect(seen).toEqual(await expectedCases(`filed_date asc, ${key} asc`, sql`matter_id = ${otherMatterId}`));
    expect(seen.length).toBe(ROWS / 4);
    await walk("case", "sort=-case_number&freeText=Keyset");
  });

  it("ignores a cursor made for another page or another search, and refuses one that is no cursor", async () => {
    const first = await ask("case", `sort=-case_number&max=${MAX}&offset=0`);
    const third = await ask("case", `sort=-case_number&max=${MAX}&offset=${2 * MAX}`);
    // A page number edited by hand keeps the link's cursor: the page is the one its number says.
    expect((await ask("case", `sort=-case_number&max=${MAX}&offset=${2 * MAX}&after=${first.next}`)).ids).toEqual(third.ids);
    // Another order or another user (a shared link): the same.
    const byName = await ask("case", `sort=name&max=${MAX}&offset=${MAX}`);
    expect((await ask("case", `sort=name&max=${MAX}&offset=${MAX}&after=${first.next}`)).ids).toEqual(byName.ids);
    const second = await ask("case", `sort=-case_number&max=${MAX}&offset=${MAX}`, DEMO.manager);
    expect((await ask("case", `sort=-case_number&max=${MAX}&offset=${MAX}&after=${first.next}`, DEMO.manager)).ids).toEqual(second.ids);
    const token = (await sessionOf(DEMO.admin)).access_token;
    for (const bad of ["not-a-cursor", "e30", "%7B%7D", Buffer.from('{"o":25,"h":"x","v":[{"a":1}]}').toString("base64url")]) {
      const res = await api(server().url, token).get(`/api/v1/case/search?sort=-case_number&max=${MAX}&offset=${MAX}&after=${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it("gives a walled user only their rows, page by page", async () => {
    const db = server().ctx.database.db;
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    const keeper = await admin("/api/v1/timekeeper", { full_name: "Keyset Keeper", email: "keyset@lawfirm.test" });
    const open = (await db.selectFrom("court_case").select("id").where("matter_id", "=", matterId).executeTakeFirstOrThrow()).id;
    const walled = (await db.selectFrom("court_case").select("id").where("matter_id", "=", otherMatterId).executeTakeFirstOrThrow()).id;
    // Notices in bursts of the same second (ties), a third of them on the walled case.
    const base = Date.now() - 3_600_000;
    const notices = Array.from({ length: 150 }, (_, i) => ({ id: `keyset-notice-${String(i).padStart(4, "0")}`, walled: i % 3 === 0 }));
    for (const [i, n] of notices.entries()) {
      await insertNoticeRow(db, { id: n.id, firmId, at: base + Math.floor(i / 4) * 1000, status: "Succeeded", caseId: n.walled ? walled : open });
    }
    await db.updateTable("app_user").set({ timekeeper_id: keeper }).where("email", "=", DEMO.manager).execute();
    await db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    const now = Date.now();
    await db
      .insertInto("ethical_wall")
      .values({
        id: "keyset-wall",
        firm_id: firmId,
        name: "Keyset wall",
        type: "exclusionary",
        matter_id: otherMatterId,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    await db
      .insertInto("ethical_wall_timekeeper")
      .values({ wall_id: "keyset-wall", timekeeper_id: keeper, firm_id: firmId } as never)
      .execute();
    try {
      const ours = (ids: string[]) => ids.filter((id) => id.startsWith("keyset-notice-"));
      const seen = ours(await walk("inbox-item", "sort=-created_at", DEMO.manager));
      expect(seen.sort()).toEqual(notices.filter((n) => !n.walled).map((n) => n.id));
      // The administrator, whom no wall keeps out, pages through all of them.
      expect(ours(await walk("inbox-item", "sort=created_at")).length).toBe(notices.length);
    } finally {
      await db.deleteFrom("ethical_wall_timekeeper").where("wall_id", "=", "keyset-wall").execute();
      await db.deleteFrom("ethical_wall").where("id", "=", "keyset-wall").execute();
      await db.updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firmId).execute();
    }
  });
});
