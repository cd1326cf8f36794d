import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type JobKind, claimJob, completeJob, retryJob } from "../../server/queue/queue";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi, testClock } from "./harness";
import { type WebhookReceiver, startWebhookReceiver } from "./webhook-receiver";

// Webhooks: what may be saved, what a receiver gets and how it checks it, what happens when it
// fails (back-off, abandoned after a day, switched off after a day of nothing but failures), the
// delivery log with its re-send, and firm isolation. The clock is the test's; jobs are run by
// hand as the worker would, so a day of retries takes no time.

const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../docs/webhooks/standard-v1.schema.json"), "utf8")) as object;
const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
const validStandard = ajv.compile(schema);
// nef-folded-subject.eml: N.D. Cal. (cand), 3:24-cv-00456, one document.
const notice = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml"), "latin1");
const HOUR = 3600_000;

describe.each(backends)("webhooks (%s)", (backend) => {
  const clock = testClock();
  let running: RunningApi;
  let receiver: WebhookReceiver;
  let simulator: CourtSimulator;
  let admin: ReturnType<typeof api>;
  let other: ReturnType<typeof api>;
  let firmId: number;
  let serial = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    simulator = await startCourtSimulator();
    running = await startApi({ backend, clock, env: { ECFX_WEBHOOK_ALLOWED_ORIGINS: receiver.url, ECFX_COURT_BASE_URL: simulator.url } });
    await signIn();
    firmId = (await admin.get("/api/v1/firm")).body.id as number;
  });

  afterAll(async () => {
    await running?.close();
    await receiver?.close();
    await simulator?.close();
  });

  const db = () => running.ctx.database.db;
  /** Fresh sessions: a day moved on the server's clock ends the earlier ones. */
  const signIn = async () => {
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    other = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
  };

  /** Runs every due job as the worker does: a failure is tried again after the back-off. */
  const runDueJobs = async () => {
    for (let i = 0; i < 200; i++) {
      const job = await claimJob(running.ctx, "test-worker", 60_000);
      if (!job) return;
      try {
        await PIPELINE_JOBS[job.kind as JobKind].run(running.ctx, job);
        await completeJob(running.ctx, job);
      } catch (error) {
        await retryJob(running.ctx, job, String(error));
      }
    }
  };

  /** Moves the clock to the next due job and runs the due jobs, until `done` or no job is left. */
  const runUntil = async (done: () => Promise<boolean>, beforeEach?: () => Promise<void>) => {
    for (let i = 0; i < 400 && !(await done()); i++) {
      await beforeEach?.();
      const next = await db().selectFrom("job").select("run_at").orderBy("run_at").executeTakeFirst();
      if (!next) return;
      if (Number(next.run_at) > clock.now()) clock.advance(Number(next.run_at) - clock.now());
      await runDueJobs();
    }
  };

  const createWebhook = async (body: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/v1/webhook", { name: `Hook ${++serial}`, url: `${receiver.url}/hooks/${serial}`, events: ["notice.received"], ...body });
    expect(res.status, res.text).toBe(201);
    const secret = await admin.post(`/api/v1/webhook/${res.body.id}/secret`);
    expect(secret.status, secret.text).toBe(200);
    return { id: res.body.id as string, secret: secret.body.secret as string };
  };

  const delivery = (id: string) => db().selectFrom("webhook_delivery").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const callsTo = (webhookId: string) => receiver.calls.filter((c) => c.headers["ecfx-webhook-id"] === webhookId);
  const sendTest = async (webhookId: string) => {
    const res = await admin.post(`/api/v1/webhook/${webhookId}/test`);
    expect(res.status, res.text).toBe(202);
    return res.body.id as string;
  };
  const upload = async (copy: string) => {
    const text = notice.replace(/^Message-ID:\s*<([^>]+)>/im, `Message-ID: <hooks-${copy}-$1>`);
    const res = await admin.request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(Buffer.from(text, "latin1")),
      headers: { "content-type": "message/rfc822" },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  it("refuses a webhook without name, URL or events, with the messages of each", async () => {
    const res = await admin.post("/api/v1/webhook", {});
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.name).toEqual(["This field is required."]);
    expect(res.body.fieldErrors.url).toEqual(["This field is required."]);
    expect(res.body.fieldErrors.events).toEqual(["Choose at least one event."]);
    const none = await admin.post("/api/v1/webhook", { name: "No events", url: "https://hooks.example.test/x", events: [] });
    expect(none.status).toBe(400);
    expect(none.body.fieldErrors.events).toEqual(["Choose at least one event."]);
    const unknown = await admin.post("/api/v1/webhook", { name: "Odd event", url: "https://hooks.example.test/x", events: ["case.deleted"] });
    expect(unknown.status).toBe(400);
  });

  it("saves only https addresses of public hosts, unless the operator named the origin", async () => {
    const refusal = async (url: string) => {
      const res = await admin.post("/api/v1/webhook", { name: `Refused ${++serial}`, url, events: ["notice.received"] });
      expect(res.status, url).toBe(400);
      return res.body.fieldErrors.url as string[];
    };
    expect(await refusal("http://hooks.example.test/ecfx")).toEqual(["The webhook URL must be an https address."]);
    for (const url of ["https://127.0.0.1/ecfx", "https://10.1.2.3/ecfx", "https://[::1]/ecfx", "https://169.254.169.254/latest", "https://localhost/ecfx"]) {
      expect(await refusal(url)).toEqual(["The webhook URL leads to a private or local address ECFX may not call."]);
    }
    expect(await refusal("not a url")).toEqual(["Enter a full web address, such as https://example.com/ecfx."]);
    // Changing a saved webhook to a refused address is refused too.
    const saved = await admin.post("/api/v1/webhook", { name: `Public ${++serial}`, url: "https://hooks.example.test/ecfx", events: ["notice.received"] });
    expect(saved.status, saved.text).toBe(201);
    const changed = await admin.request("PATCH", `/api/v1/webhook/${saved.body.id}`, { json: { url: "https://192.168.0.10/ecfx" } });
    expect(changed.status).toBe(400);
    // The operator's origin (plain http on 127.0.0.1) may be saved.
    expect((await admin.post("/api/v1/webhook", { name: `Local ${++serial}`, url: `${receiver.url}/ok`, events: ["notice.received"] })).status).toBe(201);
  });

  it("shows the signing secret once to its creator and never in the record", async () => {
    const res = await admin.post("/api/v1/webhook", { name: `Secret ${++serial}`, url: `${receiver.url}/s`, events: ["notice.received"] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).filter((key) => /secret/i.test(key))).toEqual([]);
    const first = await admin.post(`/api/v1/webhook/${res.body.id}/secret`);
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_/);
    const again = await admin.post(`/api/v1/webhook/${res.body.id}/secret`);
    expect(again.status).toBe(409);
    const record = await admin.get(`/api/v1/webhook/${res.body.id}`);
    expect(record.text).not.toContain(first.body.secret);
    const stored = await db().selectFrom("webhook").select("secret_sealed").where("id", "=", res.body.id).executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(first.body.secret);
    const rotated = await admin.post(`/api/v1/webhook/${res.body.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(first.body.secret);
    const audit = await db().selectFrom("event_log").select("detail").where("level", "=", "AUDIT").where("detail", "like", "%signing_secret%").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toContain(`Secret ${serial}`);
    expect(audit[0]!.detail).not.toContain(rotated.body.secret);
  });

  it("signs each delivery so that the receiver can check it with the secret", async () => {
    const hook = await createWebhook();
    const deliveryId = await sendTest(hook.id);
    await runDueJobs();
    const [call] = callsTo(hook.id);
    expect(call).toBeDefined();
    expect(call!.headers["content-type"]).toBe("application/json");
    expect(call!.headers["ecfx-event"]).toBe("webhook.test");
    expect(call!.headers["ecfx-delivery"]).toBe(deliveryId);
    const timestamp = Number(call!.headers["ecfx-timestamp"]);
    expect(Math.abs(timestamp - clock.now() / 1000)).toBeLessThan(300);
    const expected = createHmac("sha256", hook.secret).update(`${timestamp}.${call!.body}`).digest("hex");
    expect(call!.headers["ecfx-signature"]).toBe(`v1=${expected}`);
    // Another secret does not sign it.
    expect(call!.headers["ecfx-signature"]).not.toBe(`v1=${createHmac("sha256", "whsec_other").update(`${timestamp}.${call!.body}`).digest("hex")}`);
    const body = JSON.parse(call!.body);
    expect(validStandard(body), JSON.stringify(validStandard.errors)).toBe(true);
    expect(body).toMatchObject({ event: "webhook.test", version: 1, firm_id: firmId, data: { test: true } });
    expect(await delivery(deliveryId)).toMatchObject({ status: "succeeded", attempts: 1, last_status_code: 200 });
  });

  it("tries a failed delivery again after 30 s, then 1 min, and stops at the first success", async () => {
    const hook = await createWebhook();
    let failures = 2;
    receiver.answer = (call) => (call.headers["ecfx-webhook-id"] === hook.id && failures-- > 0 ? 500 : 200);
    try {
      const id = await sendTest(hook.id);
      const start = clock.now();
      await runDueJobs();
      let row = await delivery(id);
      expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500, last_error: "The receiver answered HTTP 500." });
      expect(row.last_response!.length).toBe(500);
      expect(Number(row.next_attempt_at)).toBe(start + 30_000);
      // Not due yet: nothing is sent.
      clock.advance(29_000);
      await runDueJobs();
      expect(callsTo(hook.id)).toHaveLength(1);
      clock.advance(1_000);
      await runDueJobs();
      row = await delivery(id);
      expect(row).toMatchObject({ status: "pending", attempts: 2 });
      expect(Number(row.next_attempt_at)).toBe(clock.now() + 60_000);
      clock.advance(60_000);
      await runDueJobs();
      expect(await delivery(id)).toMatchObject({ status: "succeeded", attempts: 3, last_status_code: 200, last_error: null });
      expect(callsTo(hook.id)).toHaveLength(3);
      // The three attempts carried the same body, each signed at its own time.
      expect(new Set(callsTo(hook.id).map((c) => c.body)).size).toBe(1);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it("abandons a delivery after a day; switches off a webhook after a day of nothing but failures and tells the error recipients", async () => {
    await db()
      .updateTable("firm")
      .set({ error_notification_emails: JSON.stringify(["it-desk@lawfirm.test"]) })
      .where("id", "=", firmId)
      .execute();
    const hook = await createWebhook();
    let succeed = "";
    receiver.answer = (call) => (call.headers["ecfx-webhook-id"] !== hook.id || call.headers["ecfx-delivery"] === succeed ? 200 : 500);
    try {
      const start = clock.now();
      const first = await sendTest(hook.id);
      // Half a day in, one delivery gets through: the failures before it no longer count.
      await runUntil(async () => clock.now() - start >= 12 * HOUR);
      await signIn();
      succeed = await sendTest(hook.id);
      await runDueJobs();
      expect(await delivery(succeed)).toMatchObject({ status: "succeeded" });
      await runUntil(async () => (await delivery(first)).status !== "pending");
      const abandoned = await delivery(first);
      expect(abandoned.status).toBe("abandoned");
      expect(clock.now() - start).toBeGreaterThanOrEqual(24 * HOUR);
      expect(clock.now() - start).toBeLessThan(26 * HOUR);
      // Back-off capped at an hour: some thirty attempts in a day, not thousands.
      expect(abandoned.attempts).toBeGreaterThan(20);
      expect(abandoned.attempts).toBeLessThan(40);
      let webhook = await db().selectFrom("webhook").select("enabled").where("id", "=", hook.id).executeTakeFirstOrThrow();
      expect(webhook.enabled).toBe(1);
      expect(await db().selectFrom("outbound_mail").select("id").where("purpose", "=", "webhook-switched-off").execute()).toHaveLength(0);

      await signIn();
      const last = await sendTest(hook.id);
      await runUntil(async () => (await delivery(last)).status !== "pending");
      webhook = await db().selectFrom("webhook").select("enabled").where("id", "=", hook.id).executeTakeFirstOrThrow();
      expect(webhook.enabled).toBe(0);
      expect(await delivery(last)).toMatchObject({ status: "abandoned" });
      const log = await db()
        .selectFrom("event_log")
        .select(["level", "detail"])
        .where("firm_id", "=", firmId)
        .where("event", "=", "webhook switched off")
        .execute();
      expect(log).toHaveLength(1);
      expect(log[0]!.level).toBe("ERROR");
      expect(log[0]!.detail).toContain(`${receiver.url}/hooks/`);
      const mails = await db().selectFrom("outbound_mail").select(["to_addresses", "subject"]).where("purpose", "=", "webhook-switched-off").execute();
      expect(mails).toHaveLength(1);
      expect(JSON.parse(mails[0]!.to_addresses)).toEqual(["it-desk@lawfirm.test"]);
      expect(mails[0]!.subject).toMatch(/^Webhook switched off: Hook \d+$/);
      // A switched-off webhook hears of nothing more.
      const calls = callsTo(hook.id).length;
      await signIn();
      await upload("after-switch-off");
      await runDueJobs();
      expect(callsTo(hook.id)).toHaveLength(calls);
    } finally {
      receiver.answer = () => 200;
      await signIn();
    }
  });

  it("lists deliveries by status with paging, and re-sends one as a new delivery of the same event", async () => {
    const hook = await createWebhook();
    receiver.answer = (call) => (call.headers["ecfx-webhook-id"] === hook.id ? 503 : 200);
    const failing = await sendTest(hook.id);
    await runDueJobs();
    receiver.answer = () => 200;
    const ok = [await sendTest(hook.id), await sendTest(hook.id)];
    await runDueJobs();
    const all = await admin.get(`/api/v1/webhook/${hook.id}/deliveries?size=2`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.rows).toHaveLength(2);
    const second = await admin.get(`/api/v1/webhook/${hook.id}/deliveries?size=2&page=2`);
    expect(second.body.rows).toHaveLength(1);
    const pending = await admin.get(`/api/v1/webhook/${hook.id}/deliveries?status=pending`);
    expect(pending.body.rows.map((r: { id: string }) => r.id)).toEqual([failing]);
    const succeeded = await admin.get(`/api/v1/webhook/${hook.id}/deliveries?status=succeeded`);
    expect(succeeded.body.rows.map((r: { id: string }) => r.id).sort()).toEqual([...ok].sort());

    const resent = await admin.post(`/api/v1/webhook-delivery/${failing}/resend`);
    expect(resent.status).toBe(202);
    await runDueJobs();
    const copy = await delivery(resent.body.id);
    const original = await delivery(failing);
    expect(copy).toMatchObject({ status: "succeeded", event_id: original.event_id, body: original.body });
    const copyCall = callsTo(hook.id).find((c) => c.headers["ecfx-delivery"] === resent.body.id);
    expect(JSON.parse(copyCall!.body).id).toBe(original.event_id);
  });

  it("answers 404 to another firm for a webhook, its deliveries and their operations", async () => {
    const hook = await createWebhook();
    const deliveryId = await sendTest(hook.id);
    await runDueJobs();
    expect((await other.get(`/api/v1/webhook/${hook.id}`)).status).toBe(404);
    expect((await other.get(`/api/v1/webhook/${hook.id}/deliveries`)).status).toBe(404);
    expect((await other.post(`/api/v1/webhook/${hook.id}/test`)).status).toBe(404);
    expect((await other.post(`/api/v1/webhook/${hook.id}/secret/rotate`)).status).toBe(404);
    expect((await other.post(`/api/v1/webhook-delivery/${deliveryId}/resend`)).status).toBe(404);
    expect((await other.get("/api/v1/webhook/search")).body.some?.((r: { id: string }) => r.id === hook.id) ?? false).toBe(false);
    expect(await db().selectFrom("webhook_delivery").select("id").where("webhook_id", "=", hook.id).execute()).toHaveLength(1);
  });

  it("tells subscribed webhooks of a notice received and processed, in the documented shape, and a BOOMI webhook in a flat one", async () => {
    const created = async (segment: string, body: Record<string, unknown>) => {
      const res = await admin.post(`/api/v1/${segment}`, body);
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const court = await created("jurisdiction", { name: "Hooks N.D. Cal.", ecfx_jurisdictions: ["cand"] });
    const keeper = await created("timekeeper", { full_name: "Hook Keeper", email: "hook.keeper@lawfirm.test" });
    const client = await created("client", { name: "Hook Client", unique_key: "C-HOOK" });
    const matter = await created("matter", { name: "Hook Matter", unique_key: "M-HOOK", client_id: client });
    await created("case", {
      name: "Martínez v. Pacific Co",
      case_number: "3:24-cv-00456",
      matter_id: matter,
      jurisdiction_id: court,
      assigned_timekeepers: [keeper],
    });
    const standard = await createWebhook({ events: ["notice.received", "notice.processed"] });
    const boomi = await createWebhook({ events: ["notice.processed"], type: "BOOMI" });
    const quiet = await createWebhook({ events: ["documents.stored"], enabled: false });
    const itemId = await upload("shape");
    await runDueJobs();

    const standardBodies = callsTo(standard.id).map((c) => JSON.parse(c.body));
    expect(standardBodies.map((b) => b.event).sort()).toEqual(["notice.processed", "notice.received"]);
    for (const body of standardBodies) expect(validStandard(body), JSON.stringify(validStandard.errors)).toBe(true);
    const processed = standardBodies.find((b) => b.event === "notice.processed");
    expect(processed.data).toMatchObject({ inbox_item_id: itemId, case: { case_number: "3:24-cv-00456" }, court: "cand", document_count: 1 });
    expect(processed.data.documents[0].name).toBeTruthy();
    // Names and ids only: no document's bytes travel.
    expect(JSON.stringify(processed)).not.toMatch(/JVBER|base64/);

    const [boomiCall] = callsTo(boomi.id);
    const flat = JSON.parse(boomiCall!.body);
    expect(flat).toMatchObject({
      eventType: "notice.processed",
      payloadVersion: 1,
      firmId,
      inboxItemId: itemId,
      caseNumber: "3:24-cv-00456",
      court: "cand",
      documentCount: 1,
    });
    for (const value of Object.values(flat)) expect(value === null || ["string", "number", "boolean"].includes(typeof value)).toBe(true);
    expect(callsTo(quiet.id)).toHaveLength(0);
  });
});
