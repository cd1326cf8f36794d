import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { setEntitledFeatures } from "../../server/firm/entitled-features";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi, testClock } from "./harness";
import { type TitleProvider, startTitleProvider } from "./title-provider";

// AI title extraction: a fetched document of a firm entitled to FAI_TITLE_EXTRACTION, whose
// applied document processing settings turn it on with provider FAI, is renamed by the provider
// before it is filed and mailed; in every other case the provider is never called. A busy
// provider is asked again after the back-off; a refusal or a URL ECFX may not call keeps the
// name, says why in a WARNING, and the notice goes on. The clock is the test's.

// nef-folded-subject.eml: N.D. Cal. (cand), 3:24-cv-00456, one document, 035123456789.
const raw = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml"), "latin1");
const SECRET = "provider-secret-7c1e";
const CREDENTIALS = { authPath: "/oauth/token", clientId: "ecfx-firm-1", clientSecret: SECRET };
const TITLE = "Order Granting Motion to Dismiss";
let serial = 10;

describe.each(backends)("title extraction (%s)", (backend) => {
  const clock = testClock();
  let running: RunningApi;
  let simulator: CourtSimulator;
  let provider: TitleProvider;
  let worker: Worker;
  let a: ReturnType<typeof api>;
  let firmId: number;
  let preference: string | undefined;
  const storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-titles-"));

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    provider = await startTitleProvider(CREDENTIALS);
    running = await startApi({
      backend,
      clock,
      env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_EXTRACTION_ALLOWED_ORIGINS: provider.url, ECFX_FILE_STORE_ROOT: storeRoot },
    });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 1);
    a = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    firmId = (await a.get("/api/v1/firm")).body.id as number;
    const created = async (segment: string, body: Record<string, unknown>) => {
      const res = await a.post(`/api/v1/${segment}`, body);
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const court = await created("jurisdiction", { name: "Titles N.D. Cal.", ecfx_jurisdictions: ["cand"] });
    const keeper = await created("timekeeper", { full_name: "Title Keeper", email: "title.keeper@lawfirm.test" });
    const client = await created("client", { name: "Title Client", unique_key: "C-TITLE" });
    const matter = await created("matter", { name: "Title Matter", unique_key: "M-TITLE", client_id: client });
    await created("case", {
      name: "Martínez v. Pacific Co",
      case_number: "3:24-cv-00456",
      matter_id: matter,
      jurisdiction_id: court,
      assigned_timekeepers: [keeper],
    });
    const store = await created("generic-credential", { name: "Title store", field: "titles" });
    const policy = await created("storage-policy", {
      name: "Title policy",
      dms_credential_id: store,
      store_documents: true,
      document_name: "{{document.name}}",
    });
    await running.ctx.database.db.updateTable("firm").set({ storage_policy_id: policy }).where("id", "=", firmId).execute();
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
    await provider?.close();
    fs.rmSync(storeRoot, { recursive: true, force: true });
  });

  const db = () => running.ctx.database.db;
  const entitled = (yes: boolean) => setEntitledFeatures(running.ctx.database, firmId, yes ? ["FAI_TITLE_EXTRACTION"] : [], clock.now());
  const providerSettings = (overrides: Record<string, unknown> = {}) => ({
    extraction_enabled: true,
    extraction_provider: "FAI",
    extraction_client_url: provider.url,
    extraction_auth_path: CREDENTIALS.authPath,
    extraction_client_id: CREDENTIALS.clientId,
    extraction_client_secret: SECRET,
    extraction_customer_id: "CUST-9",
    extraction_queue_name: "court-titles",
    ...overrides,
  });

  /** Applies these document processing settings to every court, then uploads the notice with a document of its own. */
  const uploadWith = async (copy: string, settings: Record<string, unknown>, unstamped = 0) => {
    const setting = await a.post("/api/v1/document-processing", { name: `Titles ${copy}`, ...settings });
    expect(setting.status, setting.text).toBe(201);
    if (preference) await a.request("PATCH", `/api/v1/jurisdiction-preference/${preference}`, { json: { document_processing_id: setting.body.id } });
    else
      preference = (await a.post("/api/v1/jurisdiction-preference", { name: "Every court", enabled: true, document_processing_id: setting.body.id })).body.id;
    const document = `0351234570${++serial}`;
    if (unstamped) simulator.serveUnstamped(document, unstamped);
    const text = raw.replace(/^Message-ID:\s*<([^>]+)>/im, `Message-ID: <titles-${copy}-$1>`).replace("035123456789", document);
    const res = await a.request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(Buffer.from(text, "latin1")),
      headers: { "content-type": "message/rfc822" },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  /** What became of the item's document, once no job is due. */
  const outcome = async (itemId: string) => {
    await worker.drain();
    const item = await db().selectFrom("inbox_item").select("status").where("id", "=", itemId).executeTakeFirstOrThrow();
    const doc = await db()
      .selectFrom("document")
      .select(["name", "fetch_status", "title_extraction", "title_extraction_error"])
      .where("processed_from_id", "=", itemId)
      .executeTakeFirstOrThrow();
    const filed = await db().selectFrom("dms_record").select("location").where("inbox_item_id", "=", itemId).where("what", "=", "document").execute();
    const mails = await db().selectFrom("outbound_mail").select(["subject", "text_body", "html_body"]).where("inbox_item_id", "=", itemId).execute();
    const events = await db().selectFrom("event_log").select(["event", "level", "detail"]).where("inbox_item_id", "=", itemId).execute();
    return { status: item.status, ...doc, filed: filed.map((f) => f.location ?? ""), mails, events };
  };
  const originalName = async () => {
    const probe = await outcome(await uploadWith(`probe-${++serial}`, { extraction_enabled: false }));
    return probe.name;
  };

  it("names the document with the provider's title before it is filed and mailed", async () => {
    await entitled(true);
    const before = provider.requests.length;
    const result = await outcome(await uploadWith("extracted", providerSettings()));
    expect(result).toMatchObject({ status: "Succeeded", name: TITLE, title_extraction: "extracted", title_extraction_error: null });
    const asked = provider.requests.slice(before);
    expect(asked.map((r) => r.path)).toEqual(["/oauth/token", "/v1/title"]);
    expect(asked[0]!.body).toEqual({ client_id: CREDENTIALS.clientId, client_secret: SECRET });
    expect(asked[1]!.authorization).toBe("Bearer provider-token-1");
    expect(asked[1]!.body).toMatchObject({ customer_id: "CUST-9", queue_name: "court-titles", court_document_id: expect.any(String) });
    expect(asked[1]!.body.text).toEqual(expect.any(String));
    expect(result.filed).toHaveLength(1);
    expect(path.basename(result.filed[0]!)).toContain(TITLE);
    expect(result.mails.length).toBeGreaterThan(0);
    expect(result.mails.every((m) => m.text_body.includes(TITLE))).toBe(true);
    expect(result.events).toContainEqual(expect.objectContaining({ event: "title extracted", level: "INFO" }));
  });

  it("keeps the token it was given until it nears its expiry", async () => {
    await entitled(true);
    const before = provider.requests.length;
    expect((await outcome(await uploadWith("token-kept", providerSettings()))).name).toBe(TITLE);
    expect(provider.requests.slice(before).map((r) => r.path)).toEqual(["/v1/title"]);
  });

  it("never calls the provider for a firm not entitled to title extraction", async () => {
    await entitled(false);
    const name = await originalName();
    const before = provider.requests.length;
    const result = await outcome(await uploadWith("not-entitled", providerSettings()));
    expect(result).toMatchObject({ status: "Succeeded", name, title_extraction: null });
    expect(result.filed).toHaveLength(1);
    expect(provider.requests.length).toBe(before);
  });

  it("never calls it when the applied settings turn extraction off or name no provider", async () => {
    await entitled(true);
    const name = await originalName();
    const before = provider.requests.length;
    for (const [copy, overrides] of [
      ["disabled", { extraction_enabled: false }],
      ["no-provider", { extraction_provider: "NO_PROVIDER" }],
    ] as const) {
      const result = await outcome(await uploadWith(copy, providerSettings(overrides)));
      expect(result, copy).toMatchObject({ status: "Succeeded", name, title_extraction: null });
    }
    expect(provider.requests.length).toBe(before);
  });

  it("asks a busy provider again after the back-off; filing waits for the title", async () => {
    await entitled(true);
    provider.title = "Scheduling Order";
    provider.failNext(429);
    const item = await uploadWith("busy", providerSettings());
    const waiting = await outcome(item);
    expect(waiting).toMatchObject({ status: "Post Processing", title_extraction: "pending", filed: [], mails: [] });
    clock.advance(5_000);
    const done = await outcome(item);
    expect(done).toMatchObject({ status: "Succeeded", name: "Scheduling Order", title_extraction: "extracted" });
    expect(path.basename(done.filed[0]!)).toContain("Scheduling Order");
    provider.title = TITLE;
  });

  it("gives up on a provider busy at every attempt: the document keeps its name and the notice goes on", async () => {
    await entitled(true);
    const name = await originalName();
    provider.failNext(503, 503, 503, 503, 503);
    const item = await uploadWith("always-busy", providerSettings());
    for (const backoff of [5_000, 10_000, 20_000, 40_000]) {
      expect(await outcome(item), `before ${backoff}`).toMatchObject({ status: "Post Processing", title_extraction: "pending" });
      clock.advance(backoff);
    }
    const result = await outcome(item);
    expect(result).toMatchObject({ status: "Succeeded", name, title_extraction: "failed" });
    expect(result.title_extraction_error).toContain("answered 503");
    expect(result.filed).toHaveLength(1);
  });

  it("a title job given up for a reason of its own leaves the document its name and carries the item on", async () => {
    await entitled(true);
    const name = await originalName();
    const item = await uploadWith("given-up", providerSettings());
    await worker.drain();
    const doc = await db().selectFrom("document").select(["id", "firm_id"]).where("processed_from_id", "=", item).executeTakeFirstOrThrow();
    // As a worker would find it after a crash: fetched, the title still to be asked, the job spent.
    await db().updateTable("document").set({ name, title_extraction: "pending" }).where("id", "=", doc.id).execute();
    await db().updateTable("inbox_item").set({ status: "Post Processing" }).where("id", "=", item).execute();
    const job = { ref_id: doc.id, firm_id: doc.firm_id } as Parameters<NonNullable<(typeof PIPELINE_JOBS)["extract-title"]["onGiveUp"]>>[1];
    await PIPELINE_JOBS["extract-title"].onGiveUp!(running.ctx, job, "database unavailable");
    const result = await outcome(item);
    expect(result).toMatchObject({ status: "Succeeded", name, title_extraction: "failed", title_extraction_error: "database unavailable" });
  });

  it("asks for the title only once the wait for the court's stamp has released the document", async () => {
    await entitled(true);
    const before = provider.requests.length;
    const item = await uploadWith("stamp-wait", providerSettings({ wait_for_stamp: true, max_minutes_wait_for_stamp: 30 }), 1);
    expect(await outcome(item)).toMatchObject({ status: "Post Processing", fetch_status: "pending", title_extraction: null, filed: [] });
    expect(provider.requests.length).toBe(before);
    clock.advance(60_000);
    expect(await outcome(item)).toMatchObject({ status: "Succeeded", fetch_status: "fetched", name: TITLE, title_extraction: "extracted" });
    expect(provider.requests.length).toBeGreaterThan(before);
  });

  it("keeps the name when the provider refuses the credentials; the notice is still filed and mailed", async () => {
    await entitled(true);
    const name = await originalName();
    const before = provider.requests.length;
    const item = await uploadWith("refused", providerSettings({ extraction_client_secret: "not-the-secret" }));
    const result = await outcome(item);
    expect(result).toMatchObject({ status: "Succeeded", name, title_extraction: "failed" });
    expect(provider.requests.slice(before).map((r) => r.path)).toEqual(["/oauth/token"]);
    expect(result.title_extraction_error).toBe("Title not extracted: the extraction provider refused the client id and secret (401 to the token request).");
    expect(result.events).toContainEqual({
      event: "title extraction failed",
      level: "WARNING",
      detail: expect.stringContaining(result.title_extraction_error!),
    });
    expect(result.filed).toHaveLength(1);
    expect(path.basename(result.filed[0]!)).toContain(name);
    expect(result.mails.length).toBeGreaterThan(0);
    // The inbox card says why, to the firm's users only.
    const card = await a.get(`/api/v1/inbox/${item}/card`);
    expect(card.body.documents).toEqual([expect.objectContaining({ name, title_extraction: "failed", title_extraction_error: result.title_extraction_error })]);
    const other = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
    expect((await other.get(`/api/v1/inbox/${item}/card`)).status).toBe(404);
  });

  it("refuses a client URL on a private address the operator did not name, without calling it", async () => {
    await entitled(true);
    const name = await originalName();
    const before = provider.requests.length;
    const port = new URL(provider.url).port;
    for (const url of [`https://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const result = await outcome(await uploadWith(`private-${url}`, providerSettings({ extraction_client_url: url })));
      expect(result, url).toMatchObject({ status: "Succeeded", name, title_extraction: "failed" });
      expect(result.title_extraction_error, url).toMatch(/^Not fetched: /);
      expect(result.events).toContainEqual(expect.objectContaining({ event: "title extraction failed", level: "WARNING" }));
      expect(result.filed).toHaveLength(1);
    }
    expect(provider.requests.length).toBe(before);
  });

  it("never shows the provider's secret in the event log or any answer", async () => {
    const everything = await db().selectFrom("event_log").select("detail").execute();
    expect(everything.map((e) => e.detail).join("\n")).not.toContain(SECRET);
    const answers = await Promise.all(
      ["/api/v1/event-log/search?max=100", "/api/v1/inbox-item/search?max=100", "/api/v1/document-processing/search?max=100"].map((p) => a.get(p)),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).not.toContain(SECRET);
    }
    // The provider did receive it: the search above would find it if it leaked.
    expect(provider.requests.some((r) => r.body.client_secret === SECRET)).toBe(true);
  });
});
