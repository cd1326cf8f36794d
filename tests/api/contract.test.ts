import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { AccessLevel } from "../../app/common/access";
import { type RolePermissions, resourceTypes } from "../../server/auth/permissions";
import { createUser } from "../../server/firm/create-firm";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import type { ServerResource } from "../../server/resources/types";
import { CREATE_ORDER, type Ids, SHARED_ROW, fieldValue, filterValue, minimalBody, readOnlyRow } from "./contract-fixtures";
import { DEMO, DEMO_PASSWORD, api, backends, login, useApi } from "./harness";

// The registry contract (ARCHITECTURE §3), for every entry the generic module serves: no
// permission gives 403, a denied field never comes back, a read-only field cannot be written,
// another firm's rows are never visible. A probe user's role is rewritten in the database
// before each check; the API reads the role on every request.

// Every type a role can grant: the probe then holds at least the roles it gives users.
const RESOURCE_TYPES = [...new Set([...SERVER_RESOURCES.map((r) => r.def.resource), ...resourceTypes().map((t) => t.name)])];
const byKey = (r: ServerResource) => [r.def.key, r] as const;
const ALL = SERVER_RESOURCES.map(byKey);
const WRITABLE = SERVER_RESOURCES.filter((r) => r.writable).map(byKey);
const FIRM_OWNED = SERVER_RESOURCES.filter((r) => r.firmOwned).map(byKey);

/** FULL on every entry's resource type, with the one given rule on top. */
function fullExcept(resource: string, rule: { access: AccessLevel; fields?: Record<string, AccessLevel> }): RolePermissions {
  return { ...Object.fromEntries(RESOURCE_TYPES.map((r) => [r, { access: "FULL" as AccessLevel }])), [resource]: rule };
}

describe.each(backends)("registry contract (%s)", (backend) => {
  const server = useApi({ backend });
  const ids: { A: Ids; B: Ids } = { A: {}, B: {} };
  let adminA: ReturnType<typeof api>;
  let adminB: ReturnType<typeof api>;
  let probe: ReturnType<typeof api>;
  let roleIdA = "";
  let probeRoleId = "";

  const setRole = async (permissions: RolePermissions) => {
    await server()
      .ctx.database.db.updateTable("security_role")
      .set({ permissions: JSON.stringify(permissions) })
      .where("id", "=", probeRoleId)
      .execute();
  };
  const rowId = (res: ServerResource, firm: "A" | "B") => SHARED_ROW[res.def.key] ?? ids[firm][res.def.key]!;
  const createBody = (res: ServerResource, tag: string) => minimalBody(res.def.key, tag, ids.A, roleIdA);

  beforeAll(async () => {
    const [a, b] = await Promise.all([login(server().url, DEMO.admin), login(server().url, DEMO.secondAdmin)]);
    adminA = api(server().url, a.access_token);
    adminB = api(server().url, b.access_token);
    const firmOf = async (email: string) =>
      (await server().ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    // Users are given the View Only role: only an administrator gives or changes the admin role.
    roleIdA = (
      await server()
        .ctx.database.db.selectFrom("security_role")
        .select("id")
        .where("firm_id", "=", await firmOf(DEMO.admin))
        .where("name", "=", "View Only")
        .executeTakeFirstOrThrow()
    ).id;
    const firms = {
      A: { id: await firmOf(DEMO.admin), client: adminA, token: a.access_token, role: roleIdA, tag: "Alphacontract" },
      B: { id: await firmOf(DEMO.secondAdmin), client: adminB, token: b.access_token, role: b.user.securityRoleId, tag: "Bravocontract" },
    };

    for (const firm of ["A", "B"] as const) {
      const f = firms[firm];
      for (const key of CREATE_ORDER) {
        const res = SERVER_RESOURCES.find((r) => r.def.key === key)!;
        const created = await f.client.post(res.def.apiPath, minimalBody(key, f.tag, ids[firm], f.role));
        if (created.status !== 201) throw new Error(`creating ${key} in firm ${firm} answered ${created.status}: ${created.text}`);
        ids[firm][key] = created.body.id;
        // A field pointing at its own entity (a second storage policy) needs another row to name.
        if (res.def.fields.some((f) => f.reference === key)) {
          const other = await f.client.post(res.def.apiPath, minimalBody(key, f.tag, ids[firm], f.role));
          ids[firm][`${key}:other`] = other.body.id;
        }
      }
      for (const res of SERVER_RESOURCES.filter((r) => r.firmOwned && !r.writable)) {
        ids[firm][res.def.key] = await readOnlyRow(server(), res.def.key, f.id, f.token, f.tag, ids[firm]);
      }
    }

    probeRoleId = randomUUID();
    const now = Date.now();
    await server()
      .ctx.database.db.insertInto("security_role")
      .values({ id: probeRoleId, firm_id: firms.A.id, name: "Contract probe", is_system_defined: 0, permissions: "{}", created_at: now, updated_at: now })
      .execute();
    const email = "probe@demo.ecfx.test";
    await createUser(
      server().ctx.database,
      { firmId: firms.A.id, email, fullName: "Pat Probe", displayName: "Pat", roleId: probeRoleId, password: DEMO_PASSWORD },
      now,
    );
    probe = api(server().url, (await login(server().url, email)).access_token);
  });

  it("has a row of every registry entry in both firms", () => {
    for (const res of SERVER_RESOURCES) {
      if (!res.firmOwned) expect(SHARED_ROW[res.def.key], res.def.key).toBeTruthy();
      else for (const firm of ["A", "B"] as const) expect(ids[firm][res.def.key], `${res.def.key} in firm ${firm}`).toBeTruthy();
    }
    expect(
      SERVER_RESOURCES.filter((r) => r.writable)
        .map((r) => r.def.key)
        .sort(),
    ).toEqual([...CREATE_ORDER].sort());
  });

  it.each(ALL)("%s: DENY on the resource refuses search, read, create, update and delete", async (_key, res) => {
    await setRole(fullExcept(res.def.resource, { access: "FULL" }));
    expect((await probe.get(`${res.def.apiPath}/search`)).status).toBe(200);
    await setRole(fullExcept(res.def.resource, { access: "DENY" }));
    const id = rowId(res, "A");
    expect((await probe.get(`${res.def.apiPath}/search`)).status).toBe(403);
    expect((await probe.get(`${res.def.apiPath}/search?freeText=a`)).status).toBe(403);
    expect((await probe.get(`${res.def.apiPath}/${id}`)).status).toBe(403);
    expect((await probe.post(res.def.apiPath, res.writable ? createBody(res, "Denied") : {})).status).toBe(403);
    expect((await probe.request("PATCH", `${res.def.apiPath}/${id}`, { json: {} })).status).toBe(403);
    expect((await probe.put(`${res.def.apiPath}/${id}`, {})).status).toBe(403);
    expect((await probe.request("DELETE", `${res.def.apiPath}/${id}`)).status).toBe(403);
    expect((await adminA.get(`${res.def.apiPath}/${id}`)).status).toBe(200);
  });

  it.each(ALL)("%s: a denied field never comes back, and cannot filter or sort", async (_key, res) => {
    const id = rowId(res, "A");
    for (const field of [...Object.keys(res.columns), ...Object.keys(res.links ?? {})]) {
      const spec = res.columns[field];
      await setRole(fullExcept(res.def.resource, { access: "FULL" }));
      const shown = await probe.get(`${res.def.apiPath}/${id}`);
      expect(shown.body, `${field} shown under FULL`).toHaveProperty(field);
      if (spec?.filterable)
        expect((await probe.get(`${res.def.apiPath}/search?filter.${field}=${filterValue(spec.type)}`)).status, `filter ${field}`).toBe(200);
      if (spec?.sortable) expect((await probe.get(`${res.def.apiPath}/search?sort=-${field}`)).status, `sort ${field}`).toBe(200);

      await setRole(fullExcept(res.def.resource, { access: "FULL", fields: { [field]: "DENY" } }));
      const list = await probe.get(`${res.def.apiPath}/search?max=100`);
      expect(list.status, `search with ${field} denied: ${list.text}`).toBe(200);
      expect(list.body.length).toBeGreaterThan(0);
      for (const row of list.body) expect(row, `${field} in search`).not.toHaveProperty(field);
      const one = await probe.get(`${res.def.apiPath}/${id}`);
      expect(one.status).toBe(200);
      expect(one.body, `${field} in read`).not.toHaveProperty(field);
      expect((await probe.get(`${res.def.apiPath}/search?filter.${field}=${filterValue(spec?.type ?? "text")}`)).status, `filter ${field}`).toBe(400);
      expect((await probe.get(`${res.def.apiPath}/search?sort=${field}`)).status, `sort ${field}`).toBe(400);
      expect((await probe.get(`${res.def.apiPath}/search?sort=-${field}`)).status, `sort -${field}`).toBe(400);
    }
  });

  it.each(WRITABLE)("%s: a field the role may only read cannot be written", async (_key, res) => {
    const id = rowId(res, "A");
    for (const field of Object.keys(res.def.schema.shape)) {
      const before = (await adminA.get(`${res.def.apiPath}/${id}`)).body;
      const total = (await adminA.get(`${res.def.apiPath}/search`)).headers.get("x-total-count");
      await setRole(fullExcept(res.def.resource, { access: "FULL", fields: { [field]: "READ" } }));
      const attempt = { [field]: fieldValue(res, field, before, ids.A, roleIdA, false) };
      expect((await probe.request("PATCH", `${res.def.apiPath}/${id}`, { json: attempt })).status, `PATCH ${field}`).toBe(403);
      expect((await probe.put(`${res.def.apiPath}/${id}`, attempt)).status, `PUT ${field}`).toBe(403);
      const body = { ...createBody(res, "Readonly"), [field]: fieldValue(res, field, {}, ids.A, roleIdA, true) };
      expect((await probe.post(res.def.apiPath, body)).status, `POST with ${field}`).toBe(403);
      expect((await adminA.get(`${res.def.apiPath}/${id}`)).body, `${field} unchanged`).toEqual(before);
      expect((await adminA.get(`${res.def.apiPath}/search`)).headers.get("x-total-count"), "nothing created").toBe(total);

      // The same write with FULL on the field goes through: the refusal was the field's level.
      await setRole(fullExcept(res.def.resource, { access: "FULL" }));
      const allowed = await probe.request("PATCH", `${res.def.apiPath}/${id}`, { json: { [field]: fieldValue(res, field, before, ids.A, roleIdA, true) } });
      expect(allowed.status, `PATCH ${field} with FULL: ${allowed.text}`).toBe(200);
    }
  });

  it("empties an optional reference or date with null, and refuses null for a required one", async () => {
    const res = SERVER_RESOURCES.find((r) => r.def.key === "cases")!;
    const id = rowId(res, "A");
    const set = await adminA.request("PATCH", `${res.def.apiPath}/${id}`, { json: { judge_id: ids.A.judges, filed_date: "2024-03-01" } });
    expect(set.body).toMatchObject({ judge_id: ids.A.judges, filed_date: "2024-03-01" });
    const cleared = await adminA.request("PATCH", `${res.def.apiPath}/${id}`, { json: { judge_id: null, filed_date: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ judge_id: null, filed_date: null });
    expect((await adminA.request("PATCH", `${res.def.apiPath}/${id}`, { json: { matter_id: null } })).status).toBe(400);
  });

  it("free text never finds a row by a field the role may not see", async () => {
    const res = SERVER_RESOURCES.find((r) => r.def.key === "cases")!;
    const id = rowId(res, "A");
    expect((await adminA.request("PATCH", `${res.def.apiPath}/${id}`, { json: { caption: "Zephyrine Holdings caption" } })).status).toBe(200);
    await setRole(fullExcept(res.def.resource, { access: "FULL" }));
    expect((await probe.get(`${res.def.apiPath}/search?freeText=zephyrine`)).headers.get("x-total-count")).toBe("1");
    await setRole(fullExcept(res.def.resource, { access: "FULL", fields: { caption: "DENY" } }));
    const denied = await probe.get(`${res.def.apiPath}/search?freeText=zephyrine`);
    expect(denied.status).toBe(200);
    expect(denied.headers.get("x-total-count")).toBe("0");
    // The fields it may see still find the row.
    const name = (await adminA.get(`${res.def.apiPath}/${id}`)).body.case_number;
    expect(Number((await probe.get(`${res.def.apiPath}/search?freeText=${encodeURIComponent(name)}`)).headers.get("x-total-count"))).toBeGreaterThan(0);
  });

  it("a read-only field the caller leaves out takes its default instead of refusing the create", async () => {
    const res = SERVER_RESOURCES.find((r) => r.def.key === "cases")!;
    await setRole(fullExcept(res.def.resource, { access: "FULL", fields: { status: "READ" } }));
    const created = await probe.post(res.def.apiPath, createBody(res, "Defaulted"));
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe("open");
  });

  it.each(ALL)("%s: READ on the resource reads but never writes", async (_key, res) => {
    const id = rowId(res, "A");
    const before = (await adminA.get(`${res.def.apiPath}/${id}`)).body;
    await setRole(fullExcept(res.def.resource, { access: "READ" }));
    expect((await probe.get(`${res.def.apiPath}/search`)).status).toBe(200);
    expect((await probe.get(`${res.def.apiPath}/${id}`)).status).toBe(200);
    expect((await probe.post(res.def.apiPath, res.writable ? createBody(res, "Reader") : {})).status).toBe(403);
    const change = res.writable
      ? { [Object.keys(res.def.schema.shape)[0]!]: fieldValue(res, Object.keys(res.def.schema.shape)[0]!, before, ids.A, roleIdA, true) }
      : {};
    expect((await probe.request("PATCH", `${res.def.apiPath}/${id}`, { json: change })).status).toBe(403);
    expect((await probe.put(`${res.def.apiPath}/${id}`, change)).status).toBe(403);
    expect((await probe.request("DELETE", `${res.def.apiPath}/${id}`)).status).toBe(403);
    expect((await adminA.get(`${res.def.apiPath}/${id}`)).body).toEqual(before);
    if (!res.writable) {
      // Entries the API never writes refuse even FULL: 405, whatever the role.
      expect((await adminA.post(res.def.apiPath, {})).status).toBe(405);
      expect((await adminA.request("PATCH", `${res.def.apiPath}/${id}`, { json: {} })).status).toBe(405);
      expect((await adminA.request("DELETE", `${res.def.apiPath}/${id}`)).status).toBe(405);
      expect((await adminA.get(`${res.def.apiPath}/${id}`)).body).toEqual(before);
    }
  });

  it.each(FIRM_OWNED)("%s: another firm's rows are invisible by search and by id", async (_key, res) => {
    const [idA, idB] = [rowId(res, "A"), rowId(res, "B")];
    const seg = res.def.apiPath;
    const ownB = await adminB.get(`${seg}/${idB}`);
    expect(ownB.status).toBe(200);
    expect((await adminB.get(`${seg}/search?max=100`)).body.map((r: { id: string }) => r.id)).toContain(idB);

    for (const query of ["max=100", `filter.id=${idB}`, "freeText=Bravocontract", "freeText=Bravo"]) {
      const found = await adminA.get(`${seg}/search?${query}`);
      expect(found.status, query).toBe(200);
      expect(
        found.body.map((r: { id: string }) => r.id),
        query,
      ).not.toContain(idB);
    }
    expect((await adminA.get(`${seg}/search?filter.id=${idB}`)).headers.get("x-total-count")).toBe("0");
    const change = res.writable ? createBody(res, "Intruder") : {};
    expect((await adminA.get(`${seg}/${idB}`)).status).toBe(404);
    expect((await adminA.request("PATCH", `${seg}/${idB}`, { json: change })).status).toBe(res.writable ? 404 : 405);
    expect((await adminA.put(`${seg}/${idB}`, change)).status).toBe(res.writable ? 404 : 405);
    expect((await adminA.request("DELETE", `${seg}/${idB}`)).status).toBe(res.writable ? 404 : 405);
    expect((await adminB.get(`${seg}/${idB}`)).body).toEqual(ownB.body);

    // And the other way round.
    expect((await adminB.get(`${seg}/${idA}`)).status).toBe(404);
    expect((await adminB.get(`${seg}/search?max=100`)).body.map((r: { id: string }) => r.id)).not.toContain(idA);
  });

  it("shares the court list with every firm", async () => {
    for (const res of SERVER_RESOURCES.filter((r) => !r.firmOwned)) {
      const id = rowId(res, "A");
      expect((await adminA.get(`${res.def.apiPath}/${id}`)).body).toEqual((await adminB.get(`${res.def.apiPath}/${id}`)).body);
    }
  });
});
