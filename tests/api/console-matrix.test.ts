import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_PRODUCT_MS, buildProductOnce } from "./build-once";
import { type Database, openDatabase } from "../../server/db/database";
import { createUser } from "../../server/firm/create-firm";
import { BlobStore } from "../../server/blobs/blob-store";
import { FolderBlobs } from "../../server/blobs/folder-blobs";
import { DEMO, DEMO_PASSWORD, api, creator, login } from "./harness";
import { CUSTOM_ROLES, NO_INBOX } from "./matrix-roles";
import { type Product, freePort, killGroup, spawnProduct } from "./product-processes";
import { insertDocument, insertEnvelope, insertTraces, processedNotice } from "./walled-notice";

// The console's pages that show notice data, on the real product (console and API processes as
// `npm start` runs them), with the firm's walls on and a walled notice carrying a canary string:
// the canary reaches no one the wall keeps out (default and custom roles), no one whose role is kept
// from the notice pages and no one of another firm, in any page, loader data, download or export,
// while the administrators the wall lets in see it on the same pages.

const CANARY = "Sandpipercanary";

/** The console's route modules that show notice data: each has its pages in pages() below. */
const NOTICE_ROUTE_FILES = [
  "_app.dashboard",
  "_app.$resource._index",
  "_app.$resource.$id",
  "_app.$resource.export",
  "_app.inbox-items._index",
  "_app.inbox-items.id.$id",
  "load-notice.$id",
  "load-document.$id",
  "load-dms.$id",
  "_app.dev",
  "_app.dev.mail.$id",
  "_app.webhooks.$id.deliveries",
  "_app.cases.$id.tracking",
  "_app.cases.$id.retrieve",
  "_app.templates.edit.$id",
  "resources.options.$resource",
];
/**
 * The others, and why they show no notice data: forms and settings, sign-in, assets, and the
 * signed document link, whose scope is its recipient's (tests/api/ethical-walls.test.ts).
 */
const NO_NOTICE_ROUTE_FILES = [
  "$", // unknown paths redirect
  // Billing: invoices, costs and review time name cases, never a notice's text; a case a wall
  // keeps the caller out of is left out of the exports (server/api/routes/billing.ts).
  "_app.billing.exports._index",
  "_app.billing.exports.costs",
  "_app.billing.exports.time",
  "_app.billing.invoices.$id",
  "_app.billing.invoices.$id.pdf",
  "_app.$resource.import",
  "_app.$resource.new",
  "_app.demo",
  "_app.dictionary._index",
  "_app.dictionary.edit",
  "_app.dictionary.export",
  "_app.dictionary.import",
  "_app.ethical-walls._index",
  "_app.firm-information",
  "_app.hierarchy",
  "_app.inbox-items.upload",
  "_app.jurisdiction-preferences._index",
  "_app.profile",
  "_app.security-roles.$id",
  "_app.security-roles.export",
  "_app.security-roles.import",
  "_app.security-roles.new",
  "_app.slow",
  "_app.special-handling",
  "_app.success",
  "_app.totest",
  "_app", // the layout: the signed-in user and the firm's branding
  "_index",
  "bench.bare-table",
  "firm-logo[.png]",
  "healthcheck",
  "icons[.svg]",
  "login",
  "logout",
  "oauth.$system.callback",
  "oauth.$system.start",
  "password-forgot",
  "password-reset",
  "preferences.theme",
  "public.document.$token",
  "resources.inbox-bulk", // a change: each notice is admitted through the read scope (inbox-bulk tests)
  "theme[.css]",
  "_app.scim-provisioning",
  "_app.single-sign-on",
  // Sign-on through the firm's identity provider: sessions, never notices.
  "auth.oidc.callback",
  "auth.oidc.login",
  "auth.oidc.logout",
  "auth.saml.acs",
  "auth.saml.login",
  "auth.saml.metadata",
  "auth.saml.slo",
  "auth.sso.logout",
  "resources.ping",
  "resources.page-view", // the browser's page views: a title and a path, never a notice
  "scim.v2.$", // the identity provider's provisioning calls: users and groups
];

interface Answer {
  status: number;
  location?: string;
  cookie?: string;
  body: string;
}

function request(port: number, route: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: route, method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          cookie: res.headers["set-cookie"]?.find((c) => c.startsWith("ecfx_session="))?.split(";")[0],
          body: Buffer.concat(chunks).toString("latin1"),
        }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("console matrix: the pages that show notices, behind the walls", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-console-matrix-"));
  let product: Product | undefined;
  let port = 0;
  let database: Database;
  const ids: Record<string, string> = {};
  const cookies: Record<string, string> = {};

  beforeAll(buildProductOnce, BUILD_PRODUCT_MS);

  beforeAll(async () => {
    port = await freePort();
    const apiPort = await freePort();
    const host = `localhost:${port}`;
    product = spawnProduct({
      ECFX_ROLES: "console,api",
      ECFX_DATA_DIR: dataDir,
      PORT: String(port),
      ECFX_API_PORT: String(apiPort),
      ECFX_DEMO_DATA: "false",
      ECFX_DEMO_PASSWORD: DEMO_PASSWORD,
      LOG_LEVEL: "warn",
    });
    const exited = new Promise<never>((_, reject) =>
      product!.child.once("exit", (code) => reject(new Error(`product exited (${code}): ${product!.output()}`))),
    );
    const ready = (async () => {
      for (;;) {
        if ((await request(port, "/login").catch(() => null))?.status === 200) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await Promise.race([ready, exited]);

    // The walled notice, set up through the API and written where the pipeline writes it.
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const admin = api(apiUrl, (await login(apiUrl, DEMO.admin)).access_token);
    const post = creator(admin);
    database = openDatabase(`sqlite:${path.join(dataDir, "ecfx.sqlite")}`);
    const db = database.db;
    const firmId = (await db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    const keeper = await post("/api/v1/timekeeper", { full_name: "Walled Keeper", email: "walled@console.test" });
    const client = await post("/api/v1/client", { name: "Console client", unique_key: "C-CONSOLE" });
    const matter = await post("/api/v1/matter", { name: "Walled matter", unique_key: "M-CONSOLE", client_id: client });
    const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. console", ecfx_jurisdictions: ["nysd"] });
    ids.case = await post("/api/v1/case", {
      name: "Walled v. Other",
      case_number: "1:24-cv-08888",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [keeper],
    });
    await post("/api/v1/ethical-wall", { name: "Keep out", type: "exclusionary", matter_id: matter, timekeepers: [keeper] });
    expect((await admin.put("/api/v1/firm/internal-walls", { enabled: true })).status).toBe(200);
    const dms = await post("/api/v1/generic-credential", { name: "Files", field: "files" });
    const policy = await post("/api/v1/storage-policy", { name: "Policy", dms_credential_id: dms });
    ids.template = await post("/api/v1/email-template", { name: "Matrix template", template: "<p>{{subject}}</p>" });
    ids.webhook = await post("/api/v1/webhook", { name: "Hook", url: "https://hooks.example.test/console", events: ["notice.received"] });
    const raw = `From: clerk@court.test\r\nSubject: Notice ${CANARY}\r\nMessage-ID: <${randomUUID()}@court.test>\r\n\r\nOrder in ${CANARY}.\r\n`;
    const upload = await admin.request("POST", "/api/v1/inbox/upload", { body: raw, headers: { "content-type": "message/rfc822" } });
    ids.item = upload.body.id;
    const store = { db, blobs: new BlobStore(new FolderBlobs(path.join(dataDir, "blobs")), database), fileStoreRoot: path.join(dataDir, "dms") };
    await processedNotice(store, ids.item!, { caseId: ids.case, word: CANARY });
    ids.envelope = await insertEnvelope(store, { firmId, itemId: ids.item!, caseId: ids.case!, word: CANARY });
    Object.assign(ids, await insertDocument(store, { firmId, itemId: ids.item!, envelopeId: ids.envelope, storagePolicyId: policy, word: CANARY }));
    Object.assign(ids, await insertTraces(store, { firmId, itemId: ids.item!, webhookId: ids.webhook, word: CANARY }));

    // The firm's custom roles: one with fields denied, one kept from the notice pages.
    const now = Date.now();
    for (const [name, perms] of Object.entries(CUSTOM_ROLES)) {
      await db
        .insertInto("security_role")
        .values({ id: randomUUID(), firm_id: firmId, name, is_system_defined: 0, permissions: JSON.stringify(perms()), created_at: now, updated_at: now })
        .execute();
    }

    // Walled users of three default roles and of the custom ones, and one of the role kept from
    // the notice pages whom no wall keeps out, signed in through the console like everyone else.
    const roles = await db.selectFrom("security_role").select(["id", "name"]).where("firm_id", "=", firmId).execute();
    // A firm's users sign in on its host: the second firm's on second.localhost.
    const signIn = async (email: string, on = host) => {
      const answer = await request(port, "/login", {
        method: "POST",
        headers: { host: on, origin: `http://${on}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, password: DEMO_PASSWORD }).toString(),
      });
      if (answer.status !== 302 || !answer.cookie) throw new Error(`console sign-in of ${email} answered ${answer.status}`);
      return answer.cookie;
    };
    const users: [role: string, walled: boolean][] = [
      ...["Administrator", "View Only", "Docketing", ...Object.keys(CUSTOM_ROLES)].map((role): [string, boolean] => [role, true]),
      [NO_INBOX, false],
    ];
    for (const [role, walled] of users) {
      const email = `${role.replace(/\W/g, "").toLowerCase()}-${walled ? "walled" : "open"}@demo.ecfx.test`;
      const id = await createUser(
        database,
        { firmId, email, fullName: `${role} user`, displayName: role, roleId: roles.find((r) => r.name === role)!.id, password: DEMO_PASSWORD },
        Date.now(),
      );
      if (walled) await db.updateTable("app_user").set({ timekeeper_id: keeper }).where("id", "=", id).execute();
      cookies[walled ? `${role} (walled)` : role] = await signIn(email);
    }
    cookies.Administrator = await signIn(DEMO.admin);
    cookies["Administrator of the other firm"] = await signIn(DEMO.secondAdmin, `second.localhost:${port}`);
  }, 300_000);

  afterAll(async () => {
    await killGroup(product);
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every console page, download and export that shows notice data, aimed at the walled notice. */
  const pages = () => [
    "/dashboard",
    "/inbox-items",
    `/inbox-items/id/${ids.item}`,
    "/inbox-items/export",
    `/load-notice/${ids.item}`,
    `/load-document/${ids.document}`,
    `/load-dms/${ids.dmsRecord}`,
    "/dev",
    `/dev/mail/${ids.mail}`,
    "/ecfx-notification",
    `/ecfx-notification/${ids.envelope}`,
    "/ecfx-notification/export",
    "/event-logs",
    `/event-logs/${ids.event}`,
    "/event-logs/export",
    `/webhooks/${ids.webhook}/deliveries`,
    `/cases/${ids.case}`,
    `/cases/${ids.case}/tracking`,
    `/cases/${ids.case}/retrieve`,
    `/templates/edit/${ids.template}`,
    `/resources/options/inbox-items?q=Sandpiper`,
  ];

  const get = (who: string, route: string) => request(port, route, { headers: { cookie: cookies[who]!, host: `localhost:${port}` } });

  it("has an entry for every console route: aimed at the walled notice above, or showing no notice data", () => {
    const files = fs.readdirSync(path.join(import.meta.dirname, "../../app/routes")).map((f) => f.replace(/\.tsx?$/, ""));
    const unclassified = files.filter((f) => !NOTICE_ROUTE_FILES.includes(f) && !NO_NOTICE_ROUTE_FILES.includes(f));
    expect(unclassified).toEqual([]);
    expect([...NOTICE_ROUTE_FILES, ...NO_NOTICE_ROUTE_FILES].filter((f) => !files.includes(f))).toEqual([]);
  });

  it("shows the walled notice to the administrator the wall lets in, so its absence elsewhere means something", async () => {
    for (const route of [
      `/inbox-items/id/${ids.item}`,
      `/load-notice/${ids.item}`,
      `/load-document/${ids.document}`,
      `/load-dms/${ids.dmsRecord}`,
      `/dev/mail/${ids.mail}`,
      `/resources/options/inbox-items?q=Sandpiper`,
    ]) {
      const answer = await get("Administrator", route);
      expect(answer.status, route).toBe(200);
      expect(answer.body, route).toContain(CANARY);
    }
  });

  it("shows the walled notice on no page to a walled user, a role kept from the notice pages or another firm's user", async () => {
    const leaks: string[] = [];
    for (const who of Object.keys(cookies).filter((w) => w !== "Administrator")) {
      for (const route of pages()) {
        const answer = await get(who, route);
        if (answer.status >= 500) leaks.push(`${who}: ${route} answered ${answer.status}`);
        if (answer.body.includes(CANARY)) leaks.push(`${who}: ${route} (${answer.status}) shows the walled notice`);
        if (answer.body.includes(ids.item!) && !route.includes(ids.item!)) leaks.push(`${who}: ${route} (${answer.status}) names the walled notice`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
