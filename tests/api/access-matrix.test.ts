import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS_KEYS, type AccessLevel, allows } from "../../app/common/access";
import { buildApi } from "../../server/api/app";
import { parsePermissions, resourceAccess } from "../../server/auth/permissions";
import { createUser } from "../../server/firm/create-firm";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import type { ServerResource } from "../../server/resources/types";
import { CREATE_ORDER, type Ids, SHARED_ROW, minimalBody, readOnlyRow } from "./contract-fixtures";
import { type ApiResponse, DEMO, DEMO_PASSWORD, type RequestOptions, api, backends, login, useApi } from "./harness";

// Every route of the API's own route table × every default role × both firms, read and write.
// Each caller aims every route at the other firm's rows: nothing of the other firm comes back and
// nothing of it changes. Each caller then tries, in its own firm, what its role does not allow:
// refused, and nothing changes. No answer ever carries a password hash or a secret. A route added
// to the API without a place in this table fails the test until it is given one.

const ROLES = ["Administrator", "Manager", "View Only", "Docketing"] as const;
type Firm = "A" | "B";
const OTHER: Record<Firm, Firm> = { A: "B", B: "A" };
const TAG: Record<Firm, string> = { A: "Alphamatrix", B: "Bravomatrix" };

/** Routes left out, and why: each is covered by its own tests. */
const EXCLUDED: Record<string, string> = {
  "/auth/login": "signs in; tests/api/auth.test.ts",
  "/auth/logout": "would end the caller's own session; tests/api/auth.test.ts",
  "/auth/me": "the caller's own identity; tests/api/auth.test.ts",
  "/auth/password-forgot": "no session; tests/api/password-reset.test.ts",
  "/auth/password-reset": "no session; tests/api/password-reset.test.ts",
  "/auth/:id/change-password": "the caller's own password; tests/api/change-password.test.ts",
  "/oauth/access_token": "token refresh; tests/api/refresh.test.ts",
  "*": "signed public document links; tests/api/notify.test.ts",
};

/** Public by design (sign-in page branding, health): their answers are not firm data. */
const PUBLIC = new Set(["/api/v1/health", "/api/v1/ping", "/api/v1/firm/public", "/api/v1/firm/logo.png"]);

/**
 * What a bespoke route needs of the caller's role (the generic routes follow the registry).
 * Only refusals are checked in the caller's own firm; writes the role may do are not sent.
 */
const NEEDS: Record<string, { resource: string; need: "read" | "write" }> = {
  "POST /api/v1/inbox/upload": { resource: "inbox_item", need: "write" },
  "POST /api/v1/inbox/bulk": { resource: "inbox_item", need: "write" },
  "POST /api/v1/inbox/requeue": { resource: "inbox_item", need: "write" },
  "POST /api/v1/inbox/:id/reprocess": { resource: "inbox_item", need: "write" },
  "GET /api/v1/inbox/:id/card": { resource: "inbox_item", need: "read" },
  "GET /api/v1/inbox/:id/raw": { resource: "inbox_item", need: "read" },
  "GET /api/v1/inbox/:id/dms": { resource: "inbox_item", need: "read" },
  "GET /api/v1/document/:id/content": { resource: "document", need: "read" },
  "GET /api/v1/dms-record/:id/content": { resource: "document", need: "read" },
  "GET /api/v1/firm/storage-hierarchy": { resource: "firm", need: "read" },
  "PUT /api/v1/firm/storage-hierarchy": { resource: "firm", need: "write" },
  "POST /api/v1/email-template/preview": { resource: "email_template", need: "read" },
  "GET /api/v1/security-role-choice/search": { resource: "user", need: "read" },
  "POST /api/v1/user-security-role": { resource: "firm", need: "write" },
  "PUT /api/v1/user-security-role/:id": { resource: "firm", need: "write" },
  "DELETE /api/v1/user-security-role/:id": { resource: "firm", need: "write" },
  "GET /api/v1/slow-calls": { resource: "firm", need: "write" },
  "PUT /api/v1/jurisdiction-preference/order": { resource: "jurisdiction_preference", need: "write" },
  // The webhooks page's: READ on webhooks, firm settings not DENY (the default roles with the second hold the first).
  "GET /api/v1/webhook/:id/deliveries": { resource: "firm", need: "read" },
  "POST /api/v1/webhook/:id/test": { resource: "webhook", need: "write" },
  "POST /api/v1/webhook/:id/secret": { resource: "webhook", need: "write" },
  "POST /api/v1/webhook/:id/secret/rotate": { resource: "webhook", need: "write" },
  "POST /api/v1/webhook-delivery/:id/resend": { resource: "webhook", need: "write" },
};

interface Route {
  method: string;
  url: string;
}

/** The API's route table, read from Fastify's own listing of it. */
function routeTable(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = `${stack.at(-1) ?? ""}${match[2]}`;
    stack.push(url);
    for (const method of (match[3] ?? "").split(",").map((m) => m.trim())) {
      if (method && method !== "HEAD") routes.push({ method, url });
    }
  }
  return routes;
}

type Client = ReturnType<typeof api>;
interface Caller {
  firm: Firm;
  role: (typeof ROLES)[number];
  client: Client;
  level(resource: string): AccessLevel;
}

describe.each(backends)("access matrix: every route, role and firm (%s)", (backend) => {
  const server = useApi({ backend });
  const db = () => server().ctx.database.db;
  const ids: Record<Firm, Ids> = { A: {}, B: {} };
  const firmId: Record<Firm, number> = { A: 0, B: 0 };
  const viewRole: Record<Firm, string> = { A: "", B: "" };
  const callers: Caller[] = [];
  let routes: Route[] = [];
  let secrets: string[] = [];

  beforeAll(async () => {
    const app = buildApi(server().ctx);
    await app.ready();
    routes = routeTable(app.printRoutes({ commonPrefix: false }));
    await app.close();

    const admins = { A: await login(server().url, DEMO.admin), B: await login(server().url, DEMO.secondAdmin) };
    const firmOf = async (email: string) => (await db().selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    firmId.A = await firmOf(DEMO.admin);
    firmId.B = await firmOf(DEMO.secondAdmin);
    const roles = await db().selectFrom("security_role").select(["id", "firm_id", "name", "permissions"]).execute();
    const roleOf = (firm: Firm, name: string) => roles.find((r) => r.firm_id === firmId[firm] && r.name === name)!;

    for (const firm of ["A", "B"] as const) {
      const admin = api(server().url, admins[firm].access_token);
      viewRole[firm] = roleOf(firm, "View Only").id;
      for (const key of CREATE_ORDER) {
        const res = SERVER_RESOURCES.find((r) => r.def.key === key)!;
        const created = await admin.post(res.def.apiPath, minimalBody(key, TAG[firm], ids[firm], viewRole[firm]));
        if (created.status !== 201) throw new Error(`creating ${key} in firm ${firm} answered ${created.status}: ${created.text}`);
        ids[firm][key] = created.body.id;
      }
      for (const res of SERVER_RESOURCES.filter((r) => r.firmOwned && !r.writable)) {
        ids[firm][res.def.key] = await readOnlyRow(server(), res.def.key, firmId[firm], admins[firm].access_token, TAG[firm], ids[firm]);
      }
      const now = Date.now();
      const fileId = await server().ctx.blobs.put(Buffer.from(`%PDF-1.4 ${TAG[firm]}`), "application/pdf", now);
      ids[firm].document = randomUUID();
      await db()
        .insertInto("document")
        .values({
          id: ids[firm].document!,
          firm_id: firmId[firm],
          envelope_id: ids[firm]["ecfx-notification"]!,
          processed_from_id: ids[firm]["inbox-items"]!,
          number: 1,
          name: `Order ${TAG[firm]}`,
          date: null,
          sealed: 0,
          court_document_id: null,
          url: null,
          file_id: fileId,
          fetch_status: "fetched",
          fetch_error: null,
          uploaded: 0,
          stamped_by_court: 0,
          dms_status: "succeeded",
          created_at: now,
        })
        .execute();
      ids[firm].dmsRecord = randomUUID();
      await db()
        .insertInto("dms_record")
        .values({
          id: ids[firm].dmsRecord!,
          firm_id: firmId[firm],
          inbox_item_id: ids[firm]["inbox-items"]!,
          document_id: ids[firm].document!,
          storage_policy_id: ids[firm]["storage-policies"]!,
          what: "document",
          status: "succeeded",
          location: "Order.pdf",
          root: "",
          error: null,
          attempts: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      ids[firm].mail = (await db().selectFrom("outbound_mail").select("id").where("firm_id", "=", firmId[firm]).executeTakeFirstOrThrow()).id;
      ids[firm].role = roleOf(firm, "Administrator").id;
      const job = await admin.request("POST", "/api/v1/abbreviation/import", {
        body: `name,value\n${TAG[firm]}imp,${TAG[firm]}\n`,
        headers: { "content-type": "text/csv" },
      });
      if (job.status !== 202) throw new Error(`import in firm ${firm} answered ${job.status}: ${job.text}`);
      ids[firm].job = job.body.id;
      const delivery = await admin.post(`/api/v1/webhook/${ids[firm].webhooks}/test`);
      if (delivery.status !== 202) throw new Error(`a test event in firm ${firm} answered ${delivery.status}: ${delivery.text}`);
      ids[firm].webhookDelivery = delivery.body.id;
    }

    // Both firms get one user per default role (the demo firm has them already).
    const emails: Record<Firm, Record<string, string>> = {
      A: { Administrator: DEMO.admin, Manager: DEMO.manager, "View Only": DEMO.viewOnly, Docketing: DEMO.docketing },
      B: { Administrator: DEMO.secondAdmin },
    };
    for (const role of ROLES.slice(1)) {
      const email = `${role.replace(/\W/g, "").toLowerCase()}@second.ecfx.test`;
      await createUser(
        server().ctx.database,
        { firmId: firmId.B, email, fullName: `${role} Second`, displayName: role, roleId: roleOf("B", role).id, password: DEMO_PASSWORD },
        Date.now(),
      );
      emails.B[role] = email;
    }
    for (const firm of ["A", "B"] as const) {
      for (const role of ROLES) {
        const session = await login(server().url, emails[firm][role]!);
        const permissions = parsePermissions(roleOf(firm, role).permissions);
        callers.push({ firm, role, client: api(server().url, session.access_token), level: (resource) => resourceAccess(permissions, resource) });
      }
    }
    await waitForImports();
    const hashes = await db().selectFrom("app_user").select("password_hash").execute();
    secrets = [
      ...hashes.map((h) => h.password_hash),
      ...Object.values(server().ctx.secrets).filter((v): v is string => typeof v === "string" && v.length >= 16),
    ];
  });

  async function waitForImports(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const running = await sql`select id from import_job where status in ('queued', 'running')`.execute(db());
      if (running.rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("imports did not finish");
  }

  /** Everything a firm holds in the database, row by row, to see that nothing changed. */
  async function snapshot(firm: Firm): Promise<string> {
    const tables = await db().introspection.getTables();
    const parts: string[] = [];
    // The firm's own calls are timed as they are made (api_call_timing): a record of use, not firm data.
    const firmTables = tables.filter((t) => t.columns.some((c) => c.name === "firm_id") && t.name !== "api_call_timing");
    for (const table of firmTables.sort((a, b) => a.name.localeCompare(b.name))) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const rows = await (db() as any).selectFrom(table.name).selectAll().where("firm_id", "=", firmId[firm]).execute();
      const text = rows.map((r: Record<string, unknown>) =>
        JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? String(v) : Buffer.isBuffer(v) ? v.toString("hex") : v)),
      );
      parts.push(`${table.name}: ${text.sort().join("\n")}`);
    }
    const firmRow = await db().selectFrom("firm").selectAll().where("id", "=", firmId[firm]).executeTakeFirstOrThrow();
    parts.push(JSON.stringify(firmRow));
    return parts.join("\n");
  }

  /** The concrete requests of one route aimed at a firm's rows (every registry entry for `:resource`). */
  function requestsFor(route: Route, target: Firm): { label: string; res?: ServerResource; method: string; path: string; options: RequestOptions }[] {
    const t = ids[target];
    const json = (body: unknown): RequestOptions => ({ json: body });
    const fill = (url: string, id: string) => url.replace(":id", encodeURIComponent(id));
    const key = `${route.method} ${route.url}`;
    if (route.url.includes(":resource")) {
      return SERVER_RESOURCES.map((res) => {
        const segment = res.def.apiPath.replace("/api/v1/", "");
        const rowId = SHARED_ROW[res.def.key] ?? t[res.def.key]!;
        let path = fill(route.url.replace(":resource", segment), rowId);
        let options: RequestOptions = {};
        if (route.url.endsWith("/search") || route.url.endsWith("/export")) path += `?freeText=${TAG[target]}`;
        else if (route.url.endsWith("/import")) options = { body: `id,name\n${rowId},Hijacked\n`, headers: { "content-type": "text/csv" } };
        else if (route.method !== "GET" && route.method !== "DELETE")
          options = json(res.writable ? minimalBody(res.def.key, "Crossmatrix", t, viewRole[target]) : {});
        return { label: `${key} ${res.def.key}`, res, method: route.method, path, options };
      });
    }
    const bodies: Record<string, RequestOptions> = {
      "POST /api/v1/inbox/bulk": json({ action: "archive", ids: [t["inbox-items"]] }),
      "POST /api/v1/inbox/requeue": json({ ids: [t["inbox-items"]] }),
      "POST /api/v1/inbox/:id/reprocess": json({ case_id: t.cases }),
      "POST /api/v1/inbox/upload": { body: `From: a@court.test\r\nSubject: Crossmatrix\r\n\r\nx\r\n`, headers: { "content-type": "message/rfc822" } },
      "POST /api/v1/email-template/preview": json({ template: "{{docketText}} {{case.name}}", inboxItemId: t["inbox-items"] }),
      "PUT /api/v1/firm/storage-hierarchy": json({
        hierarchy: ["firm", "location", "practice_group", "client", "matter", "case"],
        storage_policy_id: t["storage-policies"],
      }),
      "PUT /api/v1/firm/internal-walls": json({ enabled: true }),
      "PUT /api/v1/firm/web-preferences": json({ web_preferences: "{}" }),
      "PUT /api/v1/preferences/:key": json({ value: "matrix" }),
    };
    const idFor: Record<string, string | undefined> = {
      "/api/v1/inbox/": t["inbox-items"],
      "/api/v1/document/": t.document,
      "/api/v1/dms-record/": t.dmsRecord,
      "/api/v1/outbox/": t.mail,
      "/api/v1/user-security-role/": t.role,
      "/api/v1/import-jobs/": t.job,
      "/api/v1/firm/": String(firmId[target]),
      "/api/v1/preferences/": "matrix",
      "/api/v1/webhook/": t.webhooks,
      "/api/v1/webhook-delivery/": t.webhookDelivery,
    };
    const prefix = Object.keys(idFor).find((p) => route.url.startsWith(p) && route.url.includes(":"));
    let path = prefix ? route.url.replace(/:(id|key)/, encodeURIComponent(idFor[prefix]!)) : route.url;
    if (route.url === "/api/v1/security-role-choice/search") path += `?filter.id=${t.role}`;
    if (route.url === "/api/v1/inbox/ids" || route.url === "/api/v1/outbox/search") path += `?freeText=${TAG[target]}`;
    const options = bodies[key] ?? (route.method === "GET" || route.method === "DELETE" ? {} : json({}));
    return [{ label: key, method: route.method, path, options }];
  }

  const covered = (route: Route) => !EXCLUDED[route.url];

  it("knows every route of the API, and reaches each through the table", () => {
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) expect(route.url.startsWith("/") || EXCLUDED[route.url], route.url).toBeTruthy();
    expect(routes.some((r) => r.url === "/api/v1/:resource/:id" && r.method === "PATCH")).toBe(true);
  });

  /** `sent`: what the request itself carried; an answer may name those ids back (an outcome per id). */
  const check = (caller: Caller, label: string, res: ApiResponse, target: Firm, sent = "") => {
    const where = `${caller.role} of firm ${caller.firm}: ${label} → ${res.status}`;
    expect(res.status, `${where} ${res.text.slice(0, 200)}`).toBeLessThan(500);
    for (const secret of secrets) expect(res.text.includes(secret), `${where} shows a secret`).toBe(false);
    if (caller.firm === target) return;
    expect(res.text.includes(TAG[target]), `${where} shows the other firm's data`).toBe(false);
    for (const id of Object.values(ids[target]).filter((v) => !sent.includes(v)))
      expect(res.text.includes(id), `${where} names the other firm's ${id}`).toBe(false);
  };

  it.each(["A", "B"] as const)("callers of the other firm read and change nothing of firm %s", async (victim) => {
    const before = await snapshot(victim);
    let sent = 0;
    for (const caller of callers.filter((c) => c.firm === OTHER[victim])) {
      for (const route of routes.filter(covered)) {
        for (const r of requestsFor(route, victim)) {
          const res = await caller.client.request(r.method, r.path, r.options);
          sent += 1;
          if (PUBLIC.has(route.url)) expect(res.status, r.label).toBeLessThan(500);
          else check(caller, r.label, res, victim, `${r.path} ${JSON.stringify(r.options)}`);
          if (res.status < 300 && r.method !== "GET" && r.path.includes(":")) throw new Error(`unfilled ${r.path}`);
        }
      }
    }
    await waitForImports();
    expect(sent).toBeGreaterThan(500);
    expect(await snapshot(victim)).toBe(before);
  });

  it.each(["A", "B"] as const)("no role of firm %s is given more than it holds", async (firm) => {
    const before = await snapshot(firm);
    for (const caller of callers.filter((c) => c.firm === firm)) {
      const opens = (res: ServerResource) => caller.level(ACCESS_KEYS[res.def.accessKey]) !== "DENY";
      for (const route of routes.filter(covered)) {
        for (const r of requestsFor(route, firm)) {
          const write = r.method !== "GET";
          let need: { resource: string; need: "read" | "write" } | undefined;
          if (r.res) need = { resource: r.res.def.resource, need: write || route.url.endsWith("/import") ? "write" : "read" };
          else need = NEEDS[r.label];
          if (!need) continue;
          const allowed = allows(caller.level(need.resource), need.need) && (!r.res || opens(r.res));
          // Only what must be refused is sent as a write; allowed writes are the contract test's.
          if (allowed && write) continue;
          const res = await caller.client.request(r.method, r.path, r.options);
          check(caller, r.label, res, firm);
          if (!allowed) expect(res.status, `${caller.role}: ${r.label} ${res.text.slice(0, 200)}`).toBe(403);
          else if (!r.res || r.res.writable || r.res.firmOwned) expect(res.status, `${caller.role}: ${r.label} ${res.text.slice(0, 200)}`).not.toBe(403);
        }
      }
    }
    expect(await snapshot(firm)).toBe(before);
  });
});
