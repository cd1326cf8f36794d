import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { processInboxItem } from "../../server/pipeline/process-inbox-item";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices", name));

describe.each(backends)("notices in, end to end (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let caseId = "";
  /** What every case of these tests belongs to. */
  let caseOwners: { matter_id: string; assigned_timekeepers: string[] };

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    smtpPort = await listen(smtp, 0, "127.0.0.1");
    closeSmtp = () => new Promise((resolve) => smtp.close(() => resolve()));
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);

    const admin = await login(running.url, DEMO.admin);
    const client = api(running.url, admin.access_token);
    const jurisdiction = (await client.post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] })).body;
    const timekeeper = (await client.post("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" })).body;
    const firmClient = (await client.post("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-77" })).body;
    const matter = (await client.post("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: "M-77", client_id: firmClient.id })).body;
    caseOwners = { matter_id: matter.id, assigned_timekeepers: [timekeeper.id] };
    const created = await client.post("/api/v1/case", {
      name: "Peña Industries, LLC v. Bluebonnet Widgets Inc.",
      case_number: "2:24-cv-123",
      jurisdiction_id: jurisdiction.id,
      ...caseOwners,
    });
    expect(created.status).toBe(201);
    caseId = created.body.id;
  });

  afterAll(async () => {
    await worker?.stop();
    await closeSmtp?.();
    await running?.close();
    await simulator?.close();
  });

  const send = (raw: Buffer, to = DEMO_INBOX) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.gov", to: [to] }, raw });

  /** Until no job is left at all, including retries scheduled for later. */
  const settled = async () => {
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const left = await running.ctx.database.db.selectFrom("job").select("id").execute();
      if (left.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  const items = () => running.ctx.database.db.selectFrom("inbox_item").selectAll().orderBy("created_at").orderBy("id").execute();

  it("refuses mail to an unknown inbox at RCPT", async () => {
    await expect(send(fixture("nef-district-qp-utf8.eml"), "nobody@demo.ecfx.test")).rejects.toThrow(/550|No inbox/);
  });

  it("files a delivered notice on its case with the document fetched once, and links the same notice again", async () => {
    await send(fixture("nef-district-qp-utf8.eml"));
    await settled();
    let [first] = await items();
    expect(first).toMatchObject({ status: "Succeeded", disposition: "Processed", case_id: caseId, source: "SMTP" });

    const envelope = await running.ctx.database.db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", first!.id).executeTakeFirstOrThrow();
    expect(envelope.case_id).toBe(caseId);
    expect(envelope.docket_text).toContain("MOTION to Dismiss");
    const docs = await running.ctx.database.db.selectFrom("document").selectAll().where("envelope_id", "=", envelope.id).orderBy("number").execute();
    expect(docs[0]).toMatchObject({ number: 0, fetch_status: "fetched", court_document_id: "175035791113" });
    const bytes = await running.ctx.blobs.read(docs[0]!.file_id!);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(simulator.requests.get("/doc1/175135791113")).toBe(1);

    await send(fixture("nef-district-qp-utf8.eml"));
    await settled();
    const all = await items();
    [first] = all;
    const second = all[all.length - 1]!;
    expect(second.id).not.toBe(first!.id);
    expect(second).toMatchObject({ status: "Succeeded", disposition: "Ignored", duplicate_of_id: first!.id });
    expect(simulator.requests.get("/doc1/175135791113")).toBe(1);
    const events = await running.ctx.database.db.selectFrom("event_log").select("event").where("inbox_item_id", "=", first!.id).execute();
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(["received", "started", "parsed", "matched", "documents fetched"]));
  });

  it("leaves a finished item as it is when its processing runs again", async () => {
    const db = running.ctx.database.db;
    const [first] = await items();
    const events = () => db.selectFrom("event_log").select(["id", "event"]).where("inbox_item_id", "=", first!.id).orderBy("id").execute();
    const before = await events();
    await processInboxItem(running.ctx, first!.id);
    expect(await events()).toEqual(before);
    expect((await items())[0]).toEqual(first);
  });

  it("sends a notice for an unknown case to Action Required with the reason", async () => {
    await send(fixture("nef-folded-subject.eml"));
    await settled();
    const last = (await items()).pop()!;
    expect(last.status).toBe("Action Required");
    expect(last.action_required).toBe("USER");
    expect(last.reason).toMatch(/No jurisdiction of the firm is mapped|Case not found/);
  });

  it("takes an uploaded .eml, shows the card, and lets a person pick the case the machine could not find", async () => {
    const admin = await login(running.url, DEMO.admin);
    const raw = fixture("nef-html-no-charset.eml");
    const upload = await api(running.url, admin.access_token).request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(raw),
      headers: { "content-type": "message/rfc822" },
    });
    expect(upload.status).toBe(201);
    await settled();
    const client = api(running.url, admin.access_token);
    let card = (await client.get(`/api/v1/inbox/${upload.body.id}/card`)).body;
    expect(card.item.source).toBe("UPLOAD");
    expect(card.item.status).toBe("Action Required");
    expect(card.events.map((e: { event: string }) => e.event)).toContain("case not found");
    // What "create the case from this notice" starts the wizard with: no jurisdiction of the firm is gand's.
    expect(card.caseDraft).toEqual({ name: "United States v. Marsh", case_number: "1:24-cr-00077", jurisdiction_id: null });

    // The notice is 1:24-cr-00077 of gand; the case is 2:24-cv-123 of E.D. Tex.: asked, not done.
    const refused = await client.post(`/api/v1/inbox/${upload.body.id}/reprocess`, { case_id: caseId });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("1:24-cr-00077-LMM-2 (gand)");
    expect(refused.body.message).toContain("2:24-cv-123 (E.D. Tex.)");
    expect(refused.body.fieldErrors.confirm).toEqual([refused.body.message]);
    expect((await client.get(`/api/v1/inbox/${upload.body.id}/card`)).body.item).toMatchObject({ status: "Action Required", case_id: null });

    expect((await client.post(`/api/v1/inbox/${upload.body.id}/reprocess`, { case_id: caseId, confirm: true })).status).toBe(200);
    await settled();
    card = (await client.get(`/api/v1/inbox/${upload.body.id}/card`)).body;
    expect(card.item).toMatchObject({ status: "Succeeded", case_id: caseId, disposition: "Processed" });
    expect(card.case.id).toBe(caseId);

    const raw2 = await client.get(`/api/v1/inbox/${upload.body.id}/raw`);
    expect(raw2.headers.get("content-type")).toContain("message/rfc822");
    expect(Buffer.from(raw2.bytes).equals(raw)).toBe(true);
  });

  it("files a notice straight onto a picked case of its number and court, and asks first when only the court differs", async () => {
    const client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const upload = await client.request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(fixture("nef-html-windows-1252.eml")),
      headers: { "content-type": "message/rfc822" },
    });
    await settled();
    const newCase = async (name: string, caseNumber: string, court: string) => {
      const jurisdiction = (await client.post("/api/v1/jurisdiction", { name, ecfx_jurisdictions: [court] })).body;
      const created = await client.post("/api/v1/case", {
        name: `O'Connor v. Keystone (${name})`,
        case_number: caseNumber,
        jurisdiction_id: jurisdiction.id,
        ...caseOwners,
      });
      expect(created.status).toBe(201);
      return { caseId: created.body.id as string, jurisdictionId: jurisdiction.id as string };
    };
    // Same number in another court: asked.
    const { caseId: otherCourt } = await newCase("W.D. Tex.", "2:23-cv-4567", "txwd");
    const refused = await client.post(`/api/v1/inbox/${upload.body.id}/reprocess`, { case_id: otherCourt });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("2:23-cv-04567-GJP (paed)");
    expect(refused.body.message).toContain("2:23-cv-4567 (W.D. Tex.)");
    // Written another way (no office code, no padding) in the notice's court: done at once.
    const { caseId: own, jurisdictionId } = await newCase("E.D. Pa.", "23-CV-4567", "paed");
    const draft = (await client.get(`/api/v1/inbox/${upload.body.id}/card`)).body.caseDraft;
    expect(draft).toEqual({ name: "O’Connor v. Keystone Freight Lines, Inc.", case_number: "2:23-cv-04567", jurisdiction_id: jurisdictionId });
    expect((await client.post(`/api/v1/inbox/${upload.body.id}/reprocess`, { case_id: own })).status).toBe(200);
    await settled();
    expect((await client.get(`/api/v1/inbox/${upload.body.id}/card`)).body.item).toMatchObject({ status: "Succeeded", case_id: own, disposition: "Processed" });
  });

  it("serves stored documents to the firm only, and refuses uploads to read-only roles", async () => {
    const admin = await login(running.url, DEMO.admin);
    const doc = await running.ctx.database.db.selectFrom("document").select("id").where("fetch_status", "=", "fetched").executeTakeFirstOrThrow();
    const own = await api(running.url, admin.access_token).get(`/api/v1/document/${doc.id}/content`);
    expect(own.status).toBe(200);
    expect(Buffer.from(own.bytes).subarray(0, 5).toString()).toBe("%PDF-");
    const other = await login(running.url, DEMO.secondAdmin);
    expect((await api(running.url, other.access_token).get(`/api/v1/document/${doc.id}/content`)).status).toBe(404);
    const viewer = await login(running.url, DEMO.viewOnly);
    const refused = await api(running.url, viewer.access_token).request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(fixture("nda.eml")),
      headers: { "content-type": "message/rfc822" },
    });
    expect(refused.status).toBe(403);
  });

  it("archives in bulk, hides archived items by default, and keeps retry to the last 30 days", async () => {
    const admin = await login(running.url, DEMO.admin);
    const client = api(running.url, admin.access_token);
    const all = await items();
    const target = all.find((i) => i.status === "Action Required")!;
    const archived = await client.post("/api/v1/inbox/bulk", { action: "archive", ids: [target.id] });
    expect(archived.body.done).toEqual([target.id]);
    const visible = await client.get("/api/v1/inbox-item/search?max=100");
    expect(visible.body.map((r: { id: string }) => r.id)).not.toContain(target.id);
    const hidden = await client.get("/api/v1/inbox-item/search?max=100&filter.hidden=true");
    expect(hidden.body.map((r: { id: string }) => r.id)).toContain(target.id);

    await running.ctx.database.db
      .updateTable("inbox_item")
      .set({ created_at: Date.now() - 31 * 24 * 3600 * 1000 })
      .where("id", "=", target.id)
      .execute();
    const retried = await client.post("/api/v1/inbox/bulk", { action: "retry", ids: [target.id] });
    expect(retried.body.skipped).toEqual([{ id: target.id, reason: "older than 30 days" }]);
  });

  it("recognises a court announcement as not a notice", async () => {
    await send(fixture("court-announcement.eml"));
    await settled();
    const last = (await items()).pop()!;
    expect(last).toMatchObject({ status: "Succeeded", disposition: "Ignored" });
  });
});
