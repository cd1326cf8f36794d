import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_KEPT } from "../../app/common/resources/types";
import { type CourtSimulator, PACER_REFUSAL, PACER_TEST_ACCOUNT, startCourtSimulator } from "../../server/courts/simulator";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { OutboundRefusedError } from "../../server/outbound/guard";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { firmCourtSession } from "../../server/courts/firm-court-session";
import { DEMO_INBOX } from "../../server/seed/demo";
import { type RunningApi, DEMO, api, backends, creator, login, startApi } from "./harness";

// The firm's PACER credential end to end: kept one per provider type with its password sealed,
// never seen by another firm, and used by the document fetch only once the free look has failed
// (the court answered its sign-in page): signed in through PACER's Authentication API on the
// court simulator, the token kept sealed and reused, renewed once when a court refuses it, and
// a refused sign-in left as a WARNING with PACER's words, the document restricted.

const NOTICE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
const PATH = "/api/v1/provider-credential";
const EXISTS = "A credential for this provider type already exists.";

describe.each(backends)("provider credentials (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let client: ReturnType<typeof api>;
  let firmId = 0;
  let credentialId = "";
  let sent = 0;
  const db = () => running.ctx.database.db;

  /** A notice whose linked document ends in `ending` (999: restricted, 998: sealed); its document row once fetched. */
  const documentOfNotice = async (ending: "999" | "998") => {
    const tag = String(++sent).padStart(2, "0");
    const documentId = `1751357${tag}${ending}`;
    const raw = Buffer.from(NOTICE.replace("<4100001@", `<pacer-${backend.slice(0, 2)}-${tag}@`).replaceAll("175135791113", documentId), "latin1");
    const itemId = await receiveMessage(running.ctx, { firmId, raw, source: "UPLOAD", sender: "txed_cmecf@txed.uscourts.gov", recipients: [] });
    for (let i = 0; i < 150; i++) {
      await worker.drain();
      const pending = await db().selectFrom("document").select("id").where("processed_from_id", "=", itemId).where("fetch_status", "=", "pending").execute();
      const jobs = await db().selectFrom("job").select("id").where("kind", "=", "fetch-document").execute();
      if (pending.length === 0 && jobs.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const doc = await db()
      .selectFrom("document")
      .select(["id", "fetch_status", "fetch_error", "file_id"])
      .where("processed_from_id", "=", itemId)
      // The notice's attachments have no link: only the main document is fetched.
      .where("url", "is not", null)
      .executeTakeFirstOrThrow();
    return { itemId, ...doc };
  };

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_PACER_AUTH_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    firmId = (await db().selectFrom("inbox_address").select("firm_id").where("address", "=", DEMO_INBOX).executeTakeFirstOrThrow()).firm_id;
    client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const create = creator(client);
    const jurisdiction = await create("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
    const keeper = await create("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
    const firmClient = await create("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-88" });
    const matter = await create("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: "M-88", client_id: firmClient });
    await create("/api/v1/case", {
      name: "Peña Industries v. Bluebonnet",
      case_number: "2:24-cv-123",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [keeper],
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  it("without a provider credential, a document behind the sign-in page is restricted and PACER is never asked", async () => {
    const doc = await documentOfNotice("999");
    expect(doc).toMatchObject({ fetch_status: "restricted", file_id: null });
    expect(doc.fetch_error).toContain("asks for a sign-in");
    expect(simulator.pacerSignIns()).toEqual({ signedIn: 0, refused: 0 });
  });

  it("keeps one credential per provider type, its password sealed and never answered, with an AUDIT entry", async () => {
    const missing = await client.post(PATH, { provider_type: "PACER", name: "PACER" });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fieldErrors).sort()).toEqual(["password", "username"]);
    expect((await client.post(PATH, { provider_type: "LEXIS", name: "x", username: "u", password: "p" })).status).toBe(400);

    const created = await client.post(PATH, {
      provider_type: "PACER",
      name: "Firm PACER account",
      username: PACER_TEST_ACCOUNT.loginId,
      password: PACER_TEST_ACCOUNT.password,
      client_code: "docketing",
    });
    expect(created.status, created.text).toBe(201);
    credentialId = created.body.id as string;
    expect(created.body).toMatchObject({ provider_type: "PACER", username: PACER_TEST_ACCOUNT.loginId, password: SECRET_KEPT, client_code: "docketing" });
    const row = await db().selectFrom("provider_credential").selectAll().where("id", "=", credentialId).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^sb1\./);
    expect(row.password).not.toContain(PACER_TEST_ACCOUNT.password);
    const read = await client.get(`${PATH}/${credentialId}`);
    expect(read.body.password).toBe(SECRET_KEPT);
    expect(read.text).not.toContain(PACER_TEST_ACCOUNT.password);
    const audit = await db().selectFrom("event_log").select(["detail"]).where("firm_id", "=", firmId).where("level", "=", "AUDIT").execute();
    expect(audit.some((e) => e.detail.includes(credentialId) || e.detail.includes("Firm PACER account"))).toBe(true);
    expect(audit.map((e) => e.detail).join("\n")).not.toContain(PACER_TEST_ACCOUNT.password);

    const again = await client.post(PATH, { provider_type: "PACER", name: "Second", username: "other", password: "other-password" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(EXISTS);
    const list = await client.get(`${PATH}/search`);
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([credentialId]);

    // A credential of a type the firm already has cannot take it over: a row of another type
    // (one a later release may offer) changed onto PACER is refused the same way.
    const now = Date.now();
    await db()
      .insertInto("provider_credential")
      .values({
        id: `other-${backend}`,
        firm_id: firmId,
        created_at: now,
        updated_at: now,
        provider_type: "OTHER",
        name: "Other",
        username: "u",
        password: null,
        client_code: null,
      })
      .execute();
    const moved = await client.request("PATCH", `${PATH}/other-${backend}`, { json: { provider_type: "PACER" } });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe(EXISTS);
    await db().deleteFrom("provider_credential").where("id", "=", `other-${backend}`).execute();

    // Saving the form with the masked password keeps the stored one.
    expect((await client.request("PATCH", `${PATH}/${credentialId}`, { json: { password: SECRET_KEPT, name: "Firm PACER" } })).status).toBe(200);
    const kept = await db().selectFrom("provider_credential").select("password").where("id", "=", credentialId).executeTakeFirstOrThrow();
    expect(running.ctx.secretBox.reveal(kept.password!)).toBe(PACER_TEST_ACCOUNT.password);
  });

  it("another firm neither reads, lists, tests nor uses the credential, and keeps its own", async () => {
    const other = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
    expect((await other.get(`${PATH}/${credentialId}`)).status).toBe(404);
    expect((await other.get(`${PATH}/search`)).body).toEqual([]);
    expect((await other.post(`${PATH}/${credentialId}/test-connection`)).status).toBe(404);
    expect((await other.request("PATCH", `${PATH}/${credentialId}`, { json: { name: "mine" } })).status).toBe(404);
    const secondFirm = (await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.secondAdmin).executeTakeFirstOrThrow()).firm_id;
    expect(await firmCourtSession(running.ctx, secondFirm, null)).toBeUndefined();
    const own = await other.post(PATH, { provider_type: "PACER", name: "Second firm", username: "second", password: "second-password" });
    expect(own.status, own.text).toBe(201);
  });

  it("tests the connection by signing in to PACER, and says PACER's words when it refuses", async () => {
    const tested = await client.post(`${PATH}/${credentialId}/test-connection`);
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(true);
    expect(tested.body.steps[0].detail).toContain(PACER_TEST_ACCOUNT.loginId);
    expect(simulator.pacerSignIns().signedIn).toBe(1);
  });

  it("with the credential, signs in once, fetches the restricted document and reuses the kept token", async () => {
    const before = simulator.pacerSignIns().signedIn;
    const first = await documentOfNotice("999");
    expect(first.fetch_status).toBe("fetched");
    expect(first.file_id).not.toBeNull();
    const second = await documentOfNotice("999");
    expect(second.fetch_status).toBe("fetched");
    // The connection test's token is reused: no sign-in for either document.
    expect(simulator.pacerSignIns().signedIn).toBe(before);
    expect(simulator.pacerCharged()).toBe(2);
    // Each document the account paid for is a court cost on its case: PACER's rate, per page up to the cap (decision 113).
    const costs = await db()
      .selectFrom("court_cost")
      .select(["kind", "pages", "amount_cents", "document_id", "case_id"])
      .where("kind", "=", "PACER_DOCUMENT")
      .execute();
    expect(costs.map((c) => c.document_id).sort()).toEqual([first.id, second.id].sort());
    for (const cost of costs) {
      expect(cost.pages).toBeGreaterThan(0);
      expect(cost.amount_cents).toBe(10 * Math.min(cost.pages!, 30));
    }
    const token = await db().selectFrom("dms_credential_token").select("sealed").where("credential_id", "=", credentialId).executeTakeFirstOrThrow();
    expect(token.sealed).toMatch(/^sb1\./);
  });

  it("signs in again once when the court refuses the kept session", async () => {
    const before = simulator.pacerSignIns().signedIn;
    simulator.endPacerSessions();
    const doc = await documentOfNotice("999");
    expect(doc.fetch_status).toBe("fetched");
    expect(simulator.pacerSignIns().signedIn).toBe(before + 1);
  });

  it("has a paid document's record and its cost on the disk before its fetch job ends (decision 139)", async () => {
    const database = running.ctx.database;
    const own = database.commitsOnDisk;
    /** At each flush: the paid documents recorded as fetched whose fetch job is still under way. */
    const seen: string[] = [];
    database.commitsOnDisk = async () => {
      const flushed = await db()
        .selectFrom("document")
        .innerJoin("court_cost", "court_cost.document_id", "document.id")
        .innerJoin("job", (join) => join.onRef("job.ref_id", "=", "document.id").on("job.kind", "=", "fetch-document"))
        .select("document.id")
        .where("document.fetch_status", "=", "fetched")
        .execute();
      seen.push(...flushed.map((r) => r.id));
      return own();
    };
    try {
      const doc = await documentOfNotice("999");
      expect(doc.fetch_status).toBe("fetched");
      expect(seen).toContain(doc.id);
    } finally {
      database.commitsOnDisk = own;
    }
  });

  it("never serves a sealed document, signed in or not", async () => {
    const doc = await documentOfNotice("998");
    expect(doc.fetch_status).toBe("restricted");
    expect(doc.fetch_error).toContain("sealed or restricted");
  });

  it("a wrong password leaves a WARNING with PACER's words, the document restricted, and no sign-in loop", async () => {
    expect((await client.request("PATCH", `${PATH}/${credentialId}`, { json: { password: "not-the-password" } })).status).toBe(200);
    const refusedBefore = simulator.pacerSignIns().refused;
    const doc = await documentOfNotice("999");
    expect(doc.fetch_status).toBe("restricted");
    expect(doc.fetch_error).toContain(PACER_REFUSAL);
    expect(simulator.pacerSignIns().refused).toBe(refusedBefore + 1);
    const warnings = await db()
      .selectFrom("event_log")
      .select(["detail", "inbox_item_id"])
      .where("firm_id", "=", firmId)
      .where("level", "=", "WARNING")
      .where("event", "=", "provider sign-in refused")
      .execute();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ inbox_item_id: doc.itemId });
    expect(warnings[0]!.detail).toContain(PACER_REFUSAL);
    expect(warnings[0]!.detail).not.toContain("not-the-password");

    // The refusal is kept: the next document does not ask PACER again.
    const next = await documentOfNotice("999");
    expect(next.fetch_status).toBe("restricted");
    expect(simulator.pacerSignIns().refused).toBe(refusedBefore + 1);

    const tested = await client.post(`${PATH}/${credentialId}/test-connection`);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.steps[0].detail).toContain(PACER_REFUSAL);
    expect(simulator.pacerSignIns().refused).toBe(refusedBefore + 2);

    // The password typed again: the kept refusal is forgotten and the next document is fetched.
    expect((await client.request("PATCH", `${PATH}/${credentialId}`, { json: { password: PACER_TEST_ACCOUNT.password } })).status).toBe(200);
    expect((await documentOfNotice("999")).fetch_status).toBe("fetched");
  });

  it("retries later when PACER's sign-in service is down, instead of calling the document restricted", async () => {
    simulator.endPacerSessions();
    simulator.failPacerAuth(503);
    try {
      const session = await firmCourtSession(running.ctx, firmId, null);
      await expect(running.ctx.courts.fetchDocument("https://ecf.txed.uscourts.gov/doc1/175135799999", "txed", async () => session)).rejects.toThrow(/503/);
    } finally {
      simulator.failPacerAuth(null);
    }
  });

  it("keeps the outbound guard: no court request and no sign-in to a host of no court", async () => {
    const session = await firmCourtSession(running.ctx, firmId, null);
    await expect(running.ctx.courts.fetchDocument("https://attacker.example.com/doc1/175135799999", "txed", async () => session)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    await expect(
      running.ctx.courts.providerFetch(new URL("https://attacker.example.com/services/cso-auth"), { method: "POST", headers: {}, body: "{}" }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(
      running.ctx.courts.providerFetch(new URL("http://pacer.login.uscourts.gov/services/cso-auth"), { method: "POST", headers: {}, body: "{}" }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it("spoke PACER's contract in every call", () => {
    expect(simulator.contractViolations()).toEqual([]);
  });
});
