import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

type Record_ = Record<string, string>;

/** The CSV body as header and records; the byte order mark is checked and removed. */
function readCsv(text: string): { header: string[]; records: Record_[] } {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows = parse(text.slice(1), { relax_column_count: false }) as string[][];
  const [header = [], ...lines] = rows;
  return { header, records: lines.map((line) => Object.fromEntries(header.map((h, i) => [h, line[i] ?? ""]))) };
}

describe.each(backends)("CSV export (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);

  const clients = [
    { name: "Acme Holdings", unique_key: "C-100", status: "active" },
    { name: '=HYPERLINK("http://evil.test","x")', unique_key: "C-101", status: "active" },
    { name: "+1+1", unique_key: "C-102", status: "closed" },
    { name: "-2+3", unique_key: "C-103", status: "closed" },
    { name: "@SUM(A1)", unique_key: "C-104", status: "pending" },
    { name: "Tabbed", unique_key: "C-105", status: "pending" },
    { name: "Return", unique_key: "C-106", status: "pending" },
  ];

  it("exports every matching client, with formulas neutralised", async () => {
    const admin = await as(DEMO.admin);
    for (const c of clients) expect((await admin.post("/api/v1/client", c)).status).toBe(201);
    // The API trims names, so a leading tab or carriage return can only come from elsewhere (an import).
    const db = server().ctx.database.db;
    await sql`update client set name = ${"\tTabbed"} where unique_key = 'C-105'`.execute(db);
    await sql`update client set name = ${'\rReturn, with comma "and quotes"'} where unique_key = 'C-106'`.execute(db);

    const res = await admin.get("/api/v1/client/export?sort=unique_key");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("x-total-count")).toBe("7");
    const { header, records } = readCsv(res.text);
    expect(header.slice(0, 2)).toEqual(["ID", "Name"]);
    expect(header).toEqual(expect.arrayContaining(["Client number", "Status", "Created", "Matters"]));
    expect(records.map((r) => r.Name)).toEqual([
      "Acme Holdings",
      '\'=HYPERLINK("http://evil.test","x")',
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTabbed",
      '\'\rReturn, with comma "and quotes"',
    ]);
    expect(records[0]!.Created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(records[0]!.Matters).toBe("0");
  });

  it("applies the filters, free text, sort and quick filter of the table, never its paging", async () => {
    const admin = await as(DEMO.admin);
    const closed = readCsv((await admin.get("/api/v1/client/export?filter.status=closed&sort=-unique_key&max=1&offset=5")).text);
    expect(closed.records.map((r) => r["Client number"])).toEqual(["C-103", "C-102"]);
    const found = readCsv((await admin.get("/api/v1/client/export?freeText=acme")).text);
    expect(found.records.map((r) => r["Client number"])).toEqual(["C-100"]);
    const notMapped = await admin.get("/api/v1/client/export?quick=notMapped");
    expect(notMapped.headers.get("x-total-count")).toBe("7");
    const none = await admin.get("/api/v1/client/export?filter.status=active&quick=notMapped&freeText=nothing-like-this");
    expect(none.status).toBe(200);
    expect(readCsv(none.text)).toMatchObject({ records: [] });
  });

  it("names the file after the entity and the firm's day", async () => {
    const admin = await as(DEMO.admin);
    const firm = (await admin.get("/api/v1/firm")).body as { id: number; default_time_zone: string };
    const firmId = firm.id;
    // Kiritimati is UTC+14 all year: for most of the UTC day it is already tomorrow there.
    await server().ctx.database.db.updateTable("firm").set({ default_time_zone: "Pacific/Kiritimati" }).where("id", "=", firmId).execute();
    const res = await admin.get("/api/v1/client/export");
    const day = new Date(Date.now() + 14 * 3600 * 1000).toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="clients-${day}.csv"`);
    await server().ctx.database.db.updateTable("firm").set({ default_time_zone: firm.default_time_zone }).where("id", "=", firmId).execute();
  });

  it("answers a bad query as the search does", async () => {
    const admin = await as(DEMO.admin);
    const half = await admin.get("/api/v1/client/export?filter.created_at=2026-01-01..");
    expect(half.status).toBe(400);
    expect(half.body.message).toBe("Select two dates");
    expect((await admin.get("/api/v1/client/export?sort=password_hash")).status).toBe(400);
    expect((await admin.get("/api/v1/no-such-thing/export")).status).toBe(404);
    expect((await api(server().url).get("/api/v1/client/export")).status).toBe(401);
  });

  it("leaves out the fields the role may not read, and refuses to sort on them", async () => {
    const { ctx } = server();
    const manager = await sessionOf(DEMO.manager);
    const role = await ctx.database.db
      .selectFrom("security_role")
      .select("permissions")
      .where("id", "=", manager.user.securityRoleId)
      .executeTakeFirstOrThrow();
    const perms = JSON.parse(role.permissions) as Record<string, { access: string; fields?: Record<string, string> }>;
    perms.client = { access: "READ", fields: { name: "DENY", status: "READ" } };
    await ctx.database.db
      .updateTable("security_role")
      .set({ permissions: JSON.stringify(perms) })
      .where("id", "=", manager.user.securityRoleId)
      .execute();
    const res = await (await as(DEMO.manager)).get("/api/v1/client/export");
    expect(res.status).toBe(200);
    const { header, records } = readCsv(res.text);
    expect(header).not.toContain("Name");
    expect(header).toContain("Client number");
    expect(records).toHaveLength(7);
    expect(res.text).not.toContain("Acme Holdings");
    expect((await (await as(DEMO.manager)).get("/api/v1/client/export?sort=name")).status).toBe(400);
    expect((await (await as(DEMO.manager)).get("/api/v1/client/export?filter.name=acme")).status).toBe(400);
  });

  it("refuses a role without access to the entity", async () => {
    // View Only has no access to users.
    expect((await (await as(DEMO.viewOnly)).get("/api/v1/user/export")).status).toBe(403);
  });

  it("never shows another firm's rows", async () => {
    const second = await as(DEMO.secondAdmin);
    const res = await second.get("/api/v1/client/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("0");
    const { header, records } = readCsv(res.text);
    expect(header).toContain("Name");
    expect(records).toEqual([]);
    const users = readCsv((await second.get("/api/v1/user/export")).text);
    expect(users.records.map((r) => r.Email)).toEqual([DEMO.secondAdmin]);
  });

  it("streams more than one batch of 1000 rows, each row once", async () => {
    const { ctx } = server();
    const admin = await as(DEMO.admin);
    const firmId = (await admin.get("/api/v1/firm")).body.id as number;
    const count = 2345;
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `pg-bulk-${String(i).padStart(5, "0")}`,
      firm_id: firmId,
      name: `Group ${String(i).padStart(5, "0")}`,
      unique_key: `PG${i}`,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await sql`insert into practice_group (id, firm_id, name, unique_key, created_at, updated_at) values ${sql.join(
        chunk.map((r) => sql`(${r.id}, ${r.firm_id}, ${r.name}, ${r.unique_key}, ${r.created_at}, ${r.updated_at})`),
      )}`.execute(ctx.database.db);
    }
    const res = await admin.get("/api/v1/practice-group/export?sort=-name");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe(String(count));
    const { records } = readCsv(res.text);
    expect(records).toHaveLength(count);
    expect(new Set(records.map((r) => r.ID)).size).toBe(count);
    expect(records[0]!.Name).toBe(`Group ${String(count - 1).padStart(5, "0")}`);
    expect(records[count - 1]!.Name).toBe("Group 00000");
  });
});
