import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { receiveMessage } from "../../server/inbox/receive";
import { RECORD_COLUMN_NAMES } from "../../server/resources/columns";
import { SERVER_RESOURCES, serverResource } from "../../server/resources/registry";
import { CREATE_ORDER, type Ids, minimalBody } from "./contract-fixtures";
import { DEMO, api, backends, login, useApi } from "./harness";

// An entity is declared once (app/common/resources/) and served from that declaration: a
// declared field that the API does not serve, or a served column that is not declared, fails here.

const ENTRIES = SERVER_RESOURCES.map((r) => [r.def.key, r] as const);
const servedFields = (res: (typeof SERVER_RESOURCES)[number]) => [...Object.keys(res.columns), ...Object.keys(res.links ?? {})];

describe("declared and served fields", () => {
  it.each(ENTRIES)("%s serves every declared field", (_key, res) => {
    const served = servedFields(res);
    expect(res.def.fields.map((f) => f.name).filter((f) => !served.includes(f))).toEqual([]);
  });

  it.each(ENTRIES)("%s serves nothing undeclared but the record's own columns", (_key, res) => {
    const declared = res.def.fields.map((f) => f.name);
    expect(servedFields(res).filter((f) => !declared.includes(f) && !RECORD_COLUMN_NAMES.includes(f))).toEqual([]);
  });

  it.each(ENTRIES)("%s: the table columns sort and filter only what the API allows", (_key, res) => {
    const refused = res.def.columns.filter((c) => (c.sortable && !res.columns[c.field]?.sortable) || (c.filter && !res.columns[c.field]?.filterable));
    expect(refused.map((c) => c.field)).toEqual([]);
  });
});

describe.each(backends)("served for real (%s)", (backend) => {
  const server = useApi({ backend });
  const ids: Ids = {};
  let admin: ReturnType<typeof api>;

  beforeAll(async () => {
    const session = await login(server().url, DEMO.admin);
    admin = api(server().url, session.access_token);
    for (const key of CREATE_ORDER.slice(0, CREATE_ORDER.indexOf("cases") + 1)) {
      const res = serverResource(key as never);
      const created = await admin.post(res.def.apiPath, minimalBody(key, "Drift", ids, session.user.securityRoleId));
      if (created.status !== 201) throw new Error(`creating ${key} answered ${created.status}: ${created.text}`);
      ids[key] = created.body.id;
    }
  });

  it.each(ENTRIES)("%s: every served column and expression reads from the database", async (_key, res) => {
    // Quoted: a field may be named like an SQL word (a preference's order).
    const select = Object.entries(res.columns).map(([field, spec]) => `${spec.expr ?? `t."${field}"`} as "${field}"`);
    await expect(sql.raw(`select ${select.join(", ")} from ${res.table} t limit 1`).execute(server().ctx.database.db)).resolves.toBeDefined();
  });

  it("a case answers with the number of its notices (envelope_count)", async () => {
    const cases = serverResource("cases");
    expect((await admin.get(`${cases.def.apiPath}/${ids.cases}`)).body.envelope_count).toBe(0);

    const { ctx } = server();
    const firmId = (await ctx.database.db.selectFrom("court_case").select("firm_id").where("id", "=", ids.cases!).executeTakeFirstOrThrow()).firm_id;
    const itemId = await receiveMessage(ctx, { firmId, raw: Buffer.from("Subject: Drift\r\n\r\nA notice.\r\n"), source: "CLI" });
    const now = ctx.clock.now();
    for (const n of [1, 2]) {
      await ctx.database.db
        .insertInto("envelope")
        .values({
          id: `drift-envelope-${n}`,
          firm_id: firmId,
          inbox_item_id: itemId,
          case_id: ids.cases!,
          ecfx_jurisdiction_id: null,
          name: `Order ${n}`,
          date: null,
          court_envelope_id: null,
          filed_by: "Court",
          service_contacts: "[]",
          docket_text: "",
          created_at: now,
          updated_at: now,
        })
        .execute();
    }

    expect((await admin.get(`${cases.def.apiPath}/${ids.cases}`)).body.envelope_count).toBe(2);
    const listed = await admin.get(`${cases.def.apiPath}/search?filter.id=${ids.cases}&sort=-envelope_count`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: ids.cases, envelope_count: 2 })]);
  });
});
