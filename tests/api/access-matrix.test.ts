import { randomUUID } from "node:crypto";
import http from "node:http";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS_KEYS, allows } from "../../app/common/access";
import { ENTITLED_FEATURES } from "../../app/common/entitled-features";
import { buildApi } from "../../server/api/app";
import { type RolePermissions, fieldAccess, parsePermissions, resourceAccess } from "../../server/auth/permissions";
import { createUser } from "../../server/firm/create-firm";
import { setEntitledFeatures } from "../../server/firm/entitled-features";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import type { ServerResource } from "../../server/resources/types";
import { EXCLUDED, GENERIC, type Need, ROUTES, type Request, type RouteRule, type Rows } from "./access-matrix-routes";
import { CREATE_ORDER, SHARED_ROW, minimalBody, readOnlyRow } from "./contract-fixtures";
import { type ApiResponse, DEMO, DEMO_PASSWORD, type RequestOptions, api, backends, creator, login, useApi } from "./harness";
import { solidPng } from "./png";
import { CUSTOM_ROLES, FIELDS_HIDDEN, NO_INBOX } from "./matrix-roles";
import { insertDocument, insertEnvelope, insertTraces, processedNotice } from "./walled-notice";

// Every route of the API's own route table, aimed at real rows, as every default role and two
// custom ones (one with fields denied, one kept from the inbox), each once linked to a walled-out
// timekeeper and once not, in two firms that both have their walls on and every entitled feature.
// Each firm holds a walled notice carrying a canary string in its subject, docket text, document,
// stored file, mail, event and webhook delivery. For every caller and route: the status the
// role's levels and the route's declared access call for (access-matrix-routes.ts), refusal of
// what the role may not do in its own firm with nothing changed, nothing of the other firm read or
// changed, and the canary in no answer to a caller the wall, the inbox page or the firm keeps out.

const DEFAULT_ROLES = ["Administrator", "Manager", "View Only", "Docketing"] as const;
type Firm = "A" | "B";
const FIRMS: Firm[] = ["A", "B"];
const OTHER: Record<Firm, Firm> = { A: "B", B: "A" };
const TAG: Record<Firm, string> = { A: "Alphamatrix", B: "Bravomatrix" };
/** In the walled notice only. */
const CANARY: Record<Firm, string> = { A: "Kestrelcanary", B: "Osprecanary" };
/** In fields the "Fields hidden" role may not read, of a notice nobody is walled from. */
const FIELD_CANARY: Record<Firm, string> = { A: "Plovfieldmark", B: "Wrenfieldmark" };

const ROLES = [...DEFAULT_ROLES, ...Object.keys(CUSTOM_ROLES)];

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
  role: string;
  roleId: string;
  walled: boolean;
  token: string;
  client: Client;
  perms: RolePermissions;
}

const level = (c: Caller, resource: string) => resourceAccess(c.perms, resource);
const entryOf = (key: string): ServerResource => SERVER_RESOURCES.find((r) => r.def.key === key)!;
/** Whether the caller may read notices at all: the inbox page opens. */
const opensInbox = (c: Caller) => level(c, ACCESS_KEYS.inboxItemAccess) !== "DENY";

function holds(c: Caller, need: Need, rows: Rows): boolean {
  if ("entry" in need) {
    const res = entryOf(need.entry);
    return allows(level(c, res.def.resource), need.need) && level(c, ACCESS_KEYS[res.def.accessKey]) !== "DENY";
  }
  if ("resource" in need) return allows(level(c, need.resource), need.need);
  if ("field" in need) return fieldAccess(c.perms, need.field[0], need.field[1]) !== "DENY";
  if ("administrator" in need) return c.role === "Administrator";
  return c.roleId === rows.ids.role || level(c, need.ownRoleOr) !== "DENY";
}

/** One concrete request of the matrix: a route aimed at one firm's rows. */
interface Sent {
  key: string;
  label: string;
  rule: RouteRule;
  method: string;
  req: Request;
  /** The registry entry of a generic route. */
  res?: ServerResource;
  canary: boolean;
}

/** A generic route of one registry entry, as a rule of the same form as the bespoke ones. */
function genericRule(key: (typeof GENERIC)[number], res: ServerResource): RouteRule {
  const [method, url] = key.split(" ") as [string, string];
  const write = method !== "GET";
  const rowOf = (r: Rows) => SHARED_ROW[res.def.key] ?? r.ids[res.def.key]!;
  // A read-only entry has no body of its own: it is refused before any body is read.
  const body = (r: Rows): RequestOptions => ({ json: res.writable ? minimalBody(res.def.key, `Taken${r.tag}`, r.ids, r.ids.viewRole!) : {} });
  const needs: Need[] = [{ entry: res.def.key, need: write ? "write" : "read" }];
  const canaryRow: Record<string, string> = { "inbox-items": "inbox-items", "ecfx-notification": "ecfx-notification", "event-logs": "event-logs" };
  switch (url) {
    case "/api/v1/:resource":
      // A create names the other firm only through its references, which it must refuse.
      return { needs, request: (r) => ({ path: res.def.apiPath, options: body(r) }), cross: "refused" };
    case "/api/v1/:resource/export":
      return { needs, request: () => ({ path: `${res.def.apiPath}/export` }), cross: "none" };
    case "/api/v1/:resource/search":
      return { needs, request: () => ({ path: `${res.def.apiPath}/search?max=100` }), cross: "none" };
    case "/api/v1/:resource/import":
      return {
        needs,
        request: (r) => ({ path: `${res.def.apiPath}/import`, options: { body: `id,name\n${rowOf(r)},Taken\n`, headers: { "content-type": "text/csv" } } }),
        cross: "ignored",
      };
    default: {
      const request = (r: Rows): Request => ({
        path: `${res.def.apiPath}/${encodeURIComponent(rowOf(r))}`,
        ...(method === "GET" || method === "DELETE" ? {} : { options: body(r) }),
      });
      const row = canaryRow[res.def.key];
      return {
        needs,
        request,
        cross: res.firmOwned ? "404" : "none",
        ...(row && method === "GET" ? { canary: { blind: "notice" as const, request: (r: Rows) => ({ path: `${res.def.apiPath}/${r.canary[row]}` }) } } : {}),
      };
    }
  }
}

/** Every request of the matrix aimed at one firm's rows. */
function requestsOf(routes: Route[], rows: Rows): Sent[] {
  const out: Sent[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    if (EXCLUDED[key]) continue;
    const rules: [string, RouteRule, ServerResource | undefined][] = (GENERIC as readonly string[]).includes(key)
      ? SERVER_RESOURCES.map((res) => [`${key} ${res.def.key}`, genericRule(key as (typeof GENERIC)[number], res), res])
      : [[key, ROUTES[key]!, undefined]];
    for (const [label, rule, res] of rules) {
      out.push({ key, label, rule, method: route.method, req: rule.request(rows), res, canary: false });
      if (rule.canary) out.push({ key, label: `${label} (walled notice)`, rule, method: route.method, req: rule.canary.request(rows), res, canary: true });
    }
  }
  return out;
}

type Expectation = { statuses: number[] } | { success: true } | { below500NotRefused: true } | { refused: true } | { notDone: string };

/**
 * What the caller must be answered, from its role and the route's rule alone; undefined: not
 * sent (a change the role may make, or another firm's rows through a route that acts on the
 * caller's own firm only).
 */
function expectation(c: Caller, s: Sent, rows: Rows, cross: boolean, demoFirm: number): Expectation | undefined {
  const { rule, res } = s;
  const write = s.method !== "GET";
  if (rule.public) return cross ? undefined : { success: true };
  const allowed = rule.needs.every((need) => holds(c, need, rows));
  const readOnlyEntry = Boolean(res && write && !res.writable);
  if (cross) {
    if (rule.cross === "none") return undefined;
    // A body that names none of the other firm's rows acts on the caller's own firm alone.
    const body = JSON.stringify(s.req.options?.json ?? s.req.options?.body ?? "");
    if (rule.cross !== "404" && ![...Object.values(rows.ids), ...Object.values(rows.canary)].some((id) => body.includes(id) || s.req.path.includes(id)))
      return undefined;
    if (!allowed) return { statuses: [403, 404] };
    if (readOnlyEntry) return { statuses: [405] };
    if (rule.cross === "404") return { statuses: [404] };
    return rule.cross === "refused" ? { refused: true } : { below500NotRefused: true };
  }
  if (rule.demoOnly && rows.firmId !== demoFirm) return { statuses: [404] };
  // A refused change is refused by the role alone: the walled user's open twin sends it.
  if (!allowed) return c.walled && write ? undefined : { statuses: [403] };
  if (readOnlyEntry) return c.walled ? undefined : { statuses: [405] };
  const blind = s.canary && (c.walled || (rule.canary!.blind === "notice" && !opensInbox(c)));
  // A change is sent only where it must be refused: the walled row, by a caller kept from it.
  if (write && !rule.harmless && !blind) return undefined;
  // A list answers a caller kept from the row as if it did not exist: nothing, and no refusal.
  if (blind && rule.canary!.list)
    return write
      ? { notDone: Object.values(rows.canary).find((id) => s.req.options?.json && JSON.stringify(s.req.options.json).includes(id))! }
      : { success: true };
  if (blind) return { statuses: [403, 404] };
  return rule.ok ? { statuses: rule.ok } : { success: true };
}

function meets(res: ApiResponse, e: Expectation): boolean {
  const { status } = res;
  if ("statuses" in e) return e.statuses.includes(status);
  // Not acted on: refused, or named among what was skipped, never among what was done.
  if ("notDone" in e) return status < 500 && !JSON.stringify(res.body?.done ?? []).includes(e.notDone);
  if ("success" in e) return status >= 200 && status < 300;
  if ("refused" in e) return status >= 400 && status < 500;
  return status < 500 && status !== 403;
}

/** A GET with the Host header a caller chose (fetch keeps its own). */
function getWithHost(url: string, token: string, route: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(route, url);
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers: { host, authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Runs the tasks, at most `width` at a time. */
async function inParallel<T>(tasks: (() => Promise<T>)[], width = 8): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

describe.each(backends)("access matrix: every route, role, wall and firm (%s)", (backend) => {
  const server = useApi({ backend, env: { ECFX_CASE_RETRIEVE: "true" } });
  const db = () => server().ctx.database.db;
  const rows: Record<Firm, Rows> = { A: { firmId: 0, tag: TAG.A, ids: {}, canary: {} }, B: { firmId: 0, tag: TAG.B, ids: {}, canary: {} } };
  const callers: Caller[] = [];
  let routes: Route[] = [];
  let secrets: string[] = [];
  let demoFirm = 0;

  beforeAll(async () => {
    const app = buildApi(server().ctx);
    await app.ready();
    routes = routeTable(app.printRoutes({ commonPrefix: false }));
    await app.close();

    const admins = { A: await login(server().url, DEMO.admin), B: await login(server().url, DEMO.secondAdmin) };
    const firmOf = async (email: string) => (await db().selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    rows.A.firmId = demoFirm = await firmOf(DEMO.admin);
    rows.B.firmId = await firmOf(DEMO.secondAdmin);
    const now = Date.now();

    for (const firm of FIRMS) {
      const { firmId, ids, canary } = rows[firm];
      const admin = api(server().url, admins[firm].access_token);
      const post = creator(admin);
      await setEntitledFeatures(server().ctx.database, firmId, ENTITLED_FEATURES, now);
      const roleOf = async (name: string) =>
        (await db().selectFrom("security_role").select("id").where("firm_id", "=", firmId).where("name", "=", name).executeTakeFirstOrThrow()).id;
      ids.role = await roleOf("Administrator");
      ids.viewRole = await roleOf("View Only");
      for (const [name, perms] of Object.entries(CUSTOM_ROLES)) {
        const id = randomUUID();
        await db()
          .insertInto("security_role")
          .values({ id, firm_id: firmId, name, is_system_defined: 0, permissions: JSON.stringify(perms()), created_at: now, updated_at: now })
          .execute();
        ids.customRole ??= id;
      }

      // The firm's service provider key pair is made by the first read of its sign-on settings.
      expect((await admin.get("/api/v1/firm/sso")).status).toBe(200);
      for (const key of CREATE_ORDER) ids[key] = await post(entryOf(key).def.apiPath, withCredentialMarks(key, minimalBody(key, TAG[firm], ids, ids.viewRole)));
      for (const res of SERVER_RESOURCES.filter((r) => r.firmOwned && !r.writable)) {
        ids[res.def.key] = await readOnlyRow(server(), res.def.key, firmId, admins[firm].access_token, TAG[firm], ids);
      }
      // The event every role with the event log reads is about no notice: one about a notice needs
      // the inbox as well, which the walled notice's event shows.
      ids["event-logs"] = randomUUID();
      await db()
        .insertInto("event_log")
        .values({
          id: ids["event-logs"],
          firm_id: firmId,
          inbox_item_id: null,
          level: "INFO",
          event: "firm settings changed",
          detail: `Event ${TAG[firm]}`,
          created_at: Date.now(),
        })
        .execute();
      const store = { db: db(), blobs: server().ctx.blobs, fileStoreRoot: server().ctx.config.fileStoreRoot };
      // One court e-mail with dockets on two cases: an ordinary notice and the walled one are its parts.
      const parent = await upload(admin, `Two cases ${TAG[firm]}`);
      // The ordinary notice: its text and docket text are what "Fields hidden" may not read.
      await processedNotice(store, ids["inbox-items"]!, { parentId: parent, docketIndex: 0, word: TAG[firm] });
      await db()
        .updateTable("inbox_item")
        .set({ snippet: `Snippet ${FIELD_CANARY[firm]}` })
        .where("id", "=", ids["inbox-items"]!)
        .execute();
      await db()
        .updateTable("envelope")
        .set({ docket_text: `Docket ${FIELD_CANARY[firm]}` })
        .where("id", "=", ids["ecfx-notification"]!)
        .execute();
      Object.assign(
        ids,
        await insertDocument(store, {
          firmId,
          itemId: ids["inbox-items"]!,
          envelopeId: ids["ecfx-notification"]!,
          storagePolicyId: ids["storage-policies"]!,
          word: TAG[firm],
        }),
      );

      // The walled notice: a timekeeper kept out of its matter by an exclusionary wall, walls on.
      ids.walledKeeper = await post("/api/v1/timekeeper", { full_name: `Walled Keeper ${TAG[firm]}`, email: `walled-${firm}@matrix.test` });
      const matter = await post("/api/v1/matter", { name: `Walled matter ${TAG[firm]}`, unique_key: `MW-${TAG[firm]}`, client_id: ids.clients });
      canary.cases = await post("/api/v1/case", {
        name: `${TAG[firm]} Walled v. Other`,
        case_number: "1:24-cv-09999",
        matter_id: matter,
        jurisdiction_id: ids.jurisdictions,
        assigned_timekeepers: [ids.walledKeeper],
      });
      await post("/api/v1/ethical-wall", { name: `Walled ${TAG[firm]}`, type: "exclusionary", matter_id: matter, timekeepers: [ids.walledKeeper] });
      const walls = await admin.put("/api/v1/firm/internal-walls", { enabled: true });
      if (walls.status !== 200) throw new Error(`walls on in firm ${firm} answered ${walls.status}: ${walls.text}`);
      const item = await upload(admin, `Notice ${CANARY[firm]}`);
      await processedNotice(store, item, { caseId: canary.cases, parentId: parent, docketIndex: 1, word: CANARY[firm] });
      const envelope = await insertEnvelope(store, { firmId, itemId: item, caseId: canary.cases, word: CANARY[firm] });
      const filed = await insertDocument(store, { firmId, itemId: item, envelopeId: envelope, storagePolicyId: ids["storage-policies"]!, word: CANARY[firm] });
      const traces = await insertTraces(store, { firmId, itemId: item, webhookId: ids.webhooks!, word: CANARY[firm] });
      Object.assign(canary, {
        "inbox-items": item,
        "ecfx-notification": envelope,
        ...filed,
        mail: traces.mail,
        "event-logs": traces.event,
        webhookDelivery: traces.delivery,
      });

      ids.mail = (
        await db().selectFrom("outbound_mail").select("id").where("firm_id", "=", firmId).where("id", "!=", canary.mail!).executeTakeFirstOrThrow()
      ).id;
      const job = await admin.request("POST", "/api/v1/abbreviation/import", {
        body: `name,value\n${TAG[firm]}imp,${TAG[firm]}\n`,
        headers: { "content-type": "text/csv" },
      });
      if (job.status !== 202) throw new Error(`import in firm ${firm} answered ${job.status}: ${job.text}`);
      ids.job = job.body.id;
      const delivery = await admin.post(`/api/v1/webhook/${ids.webhooks}/test`);
      if (delivery.status !== 202) throw new Error(`a test event in firm ${firm} answered ${delivery.status}: ${delivery.text}`);
      ids.webhookDelivery = delivery.body.id;
      const logo = await admin.request("PUT", "/api/v1/firm/logo.png", { body: solidPng(), headers: { "content-type": "image/png" } });
      if (logo.status !== 200) throw new Error(`the logo of firm ${firm} answered ${logo.status}: ${logo.text}`);
      const word = await admin.put("/api/v1/dictionary/errors/walledOut", { value: `Walled by ${TAG[firm]}.` });
      if (word.status !== 204) throw new Error(`a dictionary entry of firm ${firm} answered ${word.status}: ${word.text}`);
    }

    // Every role twice per firm: a user linked to the walled timekeeper, and one linked to none.
    const existing: Record<string, string> = {
      "A Administrator open": DEMO.admin,
      "A Manager open": DEMO.manager,
      "A View Only open": DEMO.viewOnly,
      "A Docketing open": DEMO.docketing,
      "B Administrator open": DEMO.secondAdmin,
    };
    const signIns: (() => Promise<void>)[] = [];
    for (const firm of FIRMS) {
      const roleRows = await db().selectFrom("security_role").select(["id", "name", "permissions"]).where("firm_id", "=", rows[firm].firmId).execute();
      for (const role of ROLES) {
        const roleRow = roleRows.find((r) => r.name === role)!;
        // "No inbox" is kept from every notice by its role already.
        for (const walled of role === NO_INBOX ? [false] : [false, true]) {
          let email = existing[`${firm} ${role} ${walled ? "walled" : "open"}`];
          if (!email) {
            email = `${role.replace(/\W/g, "").toLowerCase()}-${walled ? "walled" : "open"}@${firm.toLowerCase()}.matrix.test`;
            const id = await createUser(
              server().ctx.database,
              { firmId: rows[firm].firmId, email, fullName: `${role} ${firm}`, displayName: role, roleId: roleRow.id, password: DEMO_PASSWORD },
              now,
            );
            if (walled) await db().updateTable("app_user").set({ timekeeper_id: rows[firm].ids.walledKeeper! }).where("id", "=", id).execute();
          }
          const signedIn = email;
          signIns.push(async () => {
            const session = await login(server().url, signedIn);
            const perms = parsePermissions(roleRow.permissions);
            callers.push({ firm, role, roleId: roleRow.id, walled, token: session.access_token, client: api(server().url, session.access_token), perms });
          });
        }
      }
    }
    await inParallel(signIns, 4);
    await waitForImports();
    const hashes = await db().selectFrom("app_user").select("password_hash").execute();
    secrets = [
      ...marks,
      ...hashes.map((h) => h.password_hash),
      ...Object.values(server().ctx.secrets).filter((v): v is string => typeof v === "string" && v.length >= 16),
    ];
  }, 180_000);

  /** Every credential a body can carry (secret fields, keys, tokens, passwords), set to a value no answer may show. */
  const marks: string[] = [];
  function withCredentialMarks(key: string, body: Record<string, unknown>): Record<string, unknown> {
    for (const field of entryOf(key).def.fields) {
      const credential = field.secret || /(api_key|secret|password|token)$/i.test(field.name);
      // A base64 "user:password" pair must stay one.
      if (!credential || field.kind !== "text" || field.name === "basic_auth") continue;
      body[field.name] = `Sealedmark${marks.length}x${randomUUID().slice(0, 8)}`;
      marks.push(body[field.name] as string);
    }
    return body;
  }

  /** A message uploaded to the inbox by hand, its subject carrying the given words. */
  async function upload(admin: Client, subject: string): Promise<string> {
    const raw = `From: clerk@court.test\r\nTo: notices@example.test\r\nSubject: ${subject}\r\nMessage-ID: <${randomUUID()}@court.test>\r\n\r\n${subject}.\r\n`;
    const res = await admin.request("POST", "/api/v1/inbox/upload", { body: raw, headers: { "content-type": "message/rfc822" } });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
    return res.body.id as string;
  }

  async function waitForImports(): Promise<void> {
    for (let i = 0; i < 400; i++) {
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
    // Call timings are a record of use, a user's own preferences are theirs: neither is firm data.
    const firmTables = tables.filter((t) => t.columns.some((c) => c.name === "firm_id") && !["api_call_timing", "user_preference"].includes(t.name));
    for (const table of firmTables.sort((a, b) => a.name.localeCompare(b.name))) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const found = await (db() as any).selectFrom(table.name).selectAll().where("firm_id", "=", rows[firm].firmId).execute();
      // A message's readable body is kept by the first read that needs it (loadMessageBody): derived
      // from the message itself, so filling it changes nothing of the firm's.
      const text = found.map((r: Record<string, unknown>) =>
        JSON.stringify(table.name === "inbox_item" ? { ...r, message_body: undefined } : r, (_k, v) =>
          typeof v === "bigint" ? String(v) : Buffer.isBuffer(v) ? v.toString("hex") : v,
        ),
      );
      parts.push(`${table.name}: ${text.sort().join("\n")}`);
    }
    const firmRow = await db().selectFrom("firm").selectAll().where("id", "=", rows[firm].firmId).executeTakeFirstOrThrow();
    parts.push(JSON.stringify(firmRow));
    return parts.join("\n");
  }

  const who = (c: Caller) => `${c.role}${c.walled ? " (walled)" : ""} of firm ${c.firm}`;

  /**
   * What no answer to this caller may hold: secrets; the other firm's words, canaries and ids
   * (less those the request itself sent); the caller's own firm's walled notice when a wall or
   * the inbox page keeps the caller from it; the hidden fields' mark for "Fields hidden".
   */
  function leaks(c: Caller, res: ApiResponse, sent: string): string[] {
    const found: string[] = [];
    const text = Buffer.from(res.bytes).toString("latin1");
    const has = (needle: string) => text.includes(needle) || res.text.includes(needle);
    for (const secret of secrets) if (has(secret)) found.push("a secret");
    const other = rows[OTHER[c.firm]];
    for (const word of [TAG[OTHER[c.firm]], CANARY[OTHER[c.firm]], FIELD_CANARY[OTHER[c.firm]]]) if (has(word)) found.push(`the other firm's "${word}"`);
    for (const id of [...Object.values(other.ids), ...Object.values(other.canary)]) if (!sent.includes(id) && has(id)) found.push(`the other firm's row ${id}`);
    if (c.walled || !opensInbox(c)) {
      if (has(CANARY[c.firm])) found.push(`the walled notice's "${CANARY[c.firm]}"`);
      const { cases: _case, ...noticeRows } = rows[c.firm].canary;
      for (const id of Object.values(noticeRows)) if (!sent.includes(id) && has(id)) found.push(`the walled notice's row ${id}`);
    }
    if (c.role === FIELDS_HIDDEN && has(FIELD_CANARY[c.firm])) found.push(`a denied field's "${FIELD_CANARY[c.firm]}"`);
    return found;
  }

  interface Outcome {
    caller: Caller;
    sent: Sent;
    status: number;
    problems: string[];
    canarySeen: boolean;
  }

  /** Sends each request the caller's role calls for and checks its answer. */
  async function run(pairs: { caller: Caller; sent: Sent; target: Rows; cross: boolean }[]): Promise<Outcome[]> {
    const tasks = pairs.flatMap(({ caller, sent, target, cross }) => {
      const expected = expectation(caller, sent, target, cross, demoFirm);
      if (!expected) return [];
      return [
        async (): Promise<Outcome> => {
          const res = await caller.client.request(sent.method, sent.req.path, sent.req.options);
          const problems = leaks(caller, res, `${sent.req.path} ${JSON.stringify(sent.req.options?.json ?? sent.req.options?.body ?? "")}`);
          if (!meets(res, expected)) problems.unshift(`answered ${res.status}, expected ${JSON.stringify(expected)}: ${res.text.slice(0, 160)}`);
          if (sent.rule.hostIndependent && !cross) {
            for (const host of ["dev.ecfx.com", "ecfx.example.com"]) {
              if (sent.method !== "GET") continue;
              const status = await getWithHost(server().url, caller.token, sent.req.path, host);
              if (status !== res.status) problems.push(`answered ${status} with Host: ${host}, ${res.status} without`);
            }
          }
          return { caller, sent, status: res.status, problems, canarySeen: res.text.includes(CANARY[caller.firm]) };
        },
      ];
    });
    return inParallel(tasks);
  }

  const report = (outcomes: Outcome[]) =>
    outcomes
      .filter((o) => o.problems.length > 0)
      .map((o) => `${who(o.caller)}: ${o.sent.method} ${o.sent.req.path} [${o.sent.label}]: ${o.problems.join("; ")}`);

  it("has an entry for exactly the routes of the API", () => {
    const live = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const table = new Set([...Object.keys(ROUTES), ...GENERIC, ...Object.keys(EXCLUDED)]);
    expect([...live].filter((key) => !table.has(key)).sort(), "routes without an entry in access-matrix-routes.ts").toEqual([]);
    expect([...table].filter((key) => !live.has(key)).sort(), "entries for routes the API no longer has").toEqual([]);
  });

  const exercised = new Set<string>();

  /** Changes aimed at the walled notice: sent last, since a wall that does not hold lets them through. */
  const wallTest = (sent: Sent) => sent.canary && sent.method !== "GET" && !sent.rule.harmless;
  const ownPairs = (which: (sent: Sent) => boolean) =>
    callers.flatMap((caller) =>
      requestsOf(routes, rows[caller.firm])
        .filter(which)
        .map((sent) => ({ caller, sent, target: rows[caller.firm], cross: false })),
    );

  it("answers each caller in its own firm as its role and the walls call for, and changes nothing it may not", async () => {
    const before = { A: await snapshot("A"), B: await snapshot("B") };
    const outcomes = await run(ownPairs((sent) => !wallTest(sent)));
    for (const o of outcomes) exercised.add(o.sent.key);
    expect(report(outcomes)).toEqual([]);
    await waitForImports();
    expect(await snapshot("A")).toBe(before.A);
    expect(await snapshot("B")).toBe(before.B);
  }, 600_000);

  it("shows the walled notice to those the walls let in, so its absence elsewhere means something", async () => {
    // The administrators linked to no timekeeper read the walled notice on every path that shows it.
    const paths = (firm: Firm) => [
      `/api/v1/inbox/${rows[firm].canary["inbox-items"]}/card`,
      `/api/v1/inbox/${rows[firm].canary["inbox-items"]}/raw`,
      `/api/v1/inbox-item/${rows[firm].canary["inbox-items"]}`,
      `/api/v1/envelope/${rows[firm].canary["ecfx-notification"]}`,
      `/api/v1/event-log/${rows[firm].canary["event-logs"]}`,
      `/api/v1/document/${rows[firm].canary.document}/content`,
      `/api/v1/dms-record/${rows[firm].canary.dmsRecord}/content`,
      `/api/v1/outbox/${rows[firm].canary.mail}`,
      `/api/v1/webhook/${rows[firm].ids.webhooks}/deliveries?size=100`,
      "/api/v1/inbox-item/export",
    ];
    for (const firm of FIRMS) {
      const admin = callers.find((c) => c.firm === firm && c.role === "Administrator" && !c.walled)!;
      for (const route of paths(firm)) {
        const res = await admin.client.get(route);
        expect(res.status, route).toBe(200);
        expect(res.text, route).toContain(CANARY[firm]);
      }
      const ordinary = await admin.client.get(`/api/v1/envelope/${rows[firm].ids["ecfx-notification"]}`);
      expect(ordinary.text).toContain(FIELD_CANARY[firm]);
    }
  });

  it.each(FIRMS)(
    "reads and changes nothing of firm %s for callers of the other firm",
    async (victim) => {
      const before = await snapshot(victim);
      const attackers = callers.filter((c) => c.firm === OTHER[victim] && !c.walled);
      const outcomes = await run(
        attackers.flatMap((caller) => requestsOf(routes, rows[victim]).map((sent) => ({ caller, sent, target: rows[victim], cross: true }))),
      );
      for (const o of outcomes) exercised.add(o.sent.key);
      expect(report(outcomes)).toEqual([]);
      expect(outcomes.length).toBeGreaterThan(500);
      await waitForImports();
      expect(await snapshot(victim)).toBe(before);
    },
    600_000,
  );

  it("lets no one the wall keeps out change the walled notice: archive, requeue, reprocess, re-send, track, retrieve", async () => {
    const before = { A: await snapshot("A"), B: await snapshot("B") };
    const outcomes = await run(ownPairs(wallTest));
    for (const o of outcomes) exercised.add(o.sent.key);
    expect(report(outcomes)).toEqual([]);
    expect(await snapshot("A")).toBe(before.A);
    expect(await snapshot("B")).toBe(before.B);
  }, 600_000);

  // Bad input is a 4xx before anything reads it deeply, signed in or not.
  it("answers a deeply nested body with a 4xx on every route that takes one", async () => {
    const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const admin = callers.find((c) => c.firm === "A" && c.role === "Administrator" && !c.walled)!;
    const once = requestsOf(routes, rows.A).filter((sent) => sent.method !== "GET" && !sent.canary && (!sent.res || sent.res.def.key === "clients"));
    const answers = await inParallel(
      once.flatMap((sent) =>
        [api(server().url), admin.client].map((client, signedIn) => async () => {
          const res = await client.request(sent.method, sent.req.path, { body: nested, headers: { "content-type": "application/json" } });
          return res.status >= 400 && res.status < 500
            ? ""
            : `${signedIn ? "signed in" : "no session"}: ${sent.method} ${sent.req.path} answered ${res.status}`;
        }),
      ),
    );
    expect(answers.filter(Boolean)).toEqual([]);
  });

  it("sent every route of its table", () => {
    const table = [...Object.keys(ROUTES), ...GENERIC];
    expect(table.filter((key) => !exercised.has(key))).toEqual([]);
  });
});
