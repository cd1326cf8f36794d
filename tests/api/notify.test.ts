import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { findFirm } from "../../server/firm/firm-repository";
import { createMailer } from "../../server/mail/mailer";
import { DEFAULT_TEMPLATE } from "../../server/mail/notice-template";
import { runDueDigests, startDigestScheduler } from "../../server/notify/digest-scheduler";
import { receiveMessage } from "../../server/inbox/receive";
import { claimRowAndRecordMail, markRowSent } from "../../server/notify/claimed-mail";
import { loadDeliveryDocuments } from "../../server/notify/delivery";
import { TemplateSources } from "../../server/notify/notice-mail";
import { itemToNotify, notifyInboxItem } from "../../server/notify/notify-inbox-item";
import { readPendingMail } from "../../server/notify/pending-mail";
import { recipientRows } from "../../server/notify/recipient-inputs";
import { recordNotifications } from "../../server/notify/record-notifications";
import { signPublicLink } from "../../server/notify/public-link";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi, testClock } from "./harness";

// Notices going out, end to end: court notice over SMTP → pipeline → notification rows → mail
// captured in outbound_mail; daily digests on a clock the test moves, across both US changes
// of daylight saving time.

const NOTICE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
const NY_0700 = "07:00";

/** The fixture notice for another case number, with its own Message-ID and court document. */
function noticeFor(caseSerial: number, n: number): Buffer {
  const raw = NOTICE.replace("<4100001@txed.uscourts.test>", `<notify-${n}@txed.uscourts.test>`)
    .replaceAll("2:24-cv-00123", `2:24-cv-00${caseSerial}`)
    .replaceAll("175135791113", `1751357${String(n).padStart(3, "0")}13`);
  return Buffer.from(raw, "latin1");
}

interface Scenario {
  serial: number;
  caseId: string;
  groupId: string;
  keepers: { id: string; email: string }[];
}

describe.each(backends)("notices going out (%s)", (backend) => {
  const clock = testClock(Date.parse("2026-03-06T10:00:00Z"));
  const setClock = (iso: string) => clock.advance(Date.parse(iso) - clock.now());
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let firmId = 0;
  let jurisdictionId = "";
  let matterId = "";
  let walledMatterId = "";
  let serial = 200;
  let sent = 0;
  let client: ReturnType<typeof api>;

  const db = () => running.ctx.database.db;

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, clock, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_PUBLIC_URL: "https://ecfx.example.test" } });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    smtpPort = await listen(smtp, 0, "127.0.0.1");
    closeSmtp = () => new Promise((resolve) => smtp.close(() => resolve()));
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);

    firmId = (await db().selectFrom("inbox_address").select("firm_id").where("address", "=", DEMO_INBOX).executeTakeFirstOrThrow()).firm_id;
    await db()
      .updateTable("firm")
      .set({ public_document_access: 1, internal_walls_enabled: 1, reply_to_email: "docketing@lawfirm.test", additional_receipt_emails: "[]" })
      .where("id", "=", firmId)
      .execute();
    const admin = await login(running.url, DEMO.admin);
    client = api(running.url, admin.access_token);
    jurisdictionId = (await client.post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] })).body.id;
    const firmClient = (await client.post("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-77" })).body;
    matterId = (await client.post("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: "M-77", client_id: firmClient.id })).body.id;
    walledMatterId = (await client.post("/api/v1/matter", { name: "Walled matter", unique_key: "M-78", client_id: firmClient.id })).body.id;
  });

  afterAll(async () => {
    await worker?.stop();
    await closeSmtp?.();
    await running?.close();
    await simulator?.close();
  });

  /** A preference group with fresh timekeepers, and a case they are assigned to. */
  async function scenario(options: { method: string; cadence: string; members?: number; matter?: string; activityReport?: boolean }): Promise<Scenario> {
    const n = ++serial;
    const keepers: { id: string; email: string }[] = [];
    for (let i = 0; i < (options.members ?? 1); i++) {
      const created = await client.post("/api/v1/timekeeper", { full_name: `Keeper ${n}-${i}`, email: `keeper-${n}-${i}@lawfirm.test` });
      expect(created.status).toBe(201);
      keepers.push({ id: created.body.id, email: created.body.email });
    }
    const group = await client.post("/api/v1/timekeeper-group", {
      name: `Group ${n}`,
      time_zone: "America/New_York",
      delivery_method: options.method,
      notification_cadence: options.cadence,
      daily_cadence_delivery_time: NY_0700,
      receive_daily_activity_report: options.activityReport ?? false,
      timekeeper_ids: keepers.map((k) => k.id),
    });
    expect(group.status).toBe(201);
    const created = await client.post("/api/v1/case", {
      name: `Case ${n} v. Bluebonnet`,
      case_number: `2:24-cv-${n}`,
      matter_id: options.matter ?? matterId,
      jurisdiction_id: jurisdictionId,
      assigned_timekeepers: keepers.map((k) => k.id),
    });
    expect(created.status).toBe(201);
    return { serial: n, caseId: created.body.id, groupId: group.body.id, keepers };
  }

  /** Sends a new notice on the scenario's case and waits for the pipeline; returns the item. */
  async function deliver(s: Scenario) {
    const n = ++sent;
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.gov", to: [DEMO_INBOX] }, raw: noticeFor(s.serial, n) });
    await worker.drain();
    await worker.drain();
    const item = await db().selectFrom("inbox_item").selectAll().where("message_id", "like", `%notify-${n}@%`).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ case_id: s.caseId, disposition: "Processed" });
    return item;
  }

  const mailsOf = (itemId: string) => db().selectFrom("outbound_mail").selectAll().where("inbox_item_id", "=", itemId).orderBy("created_at").execute();
  const notificationsOf = (itemId: string) => db().selectFrom("notification").selectAll().where("inbox_item_id", "=", itemId).orderBy("email").execute();
  const mailsTo = (email: string, purpose: string) =>
    db()
      .selectFrom("outbound_mail")
      .selectAll()
      .where("to_addresses", "=", JSON.stringify([email]))
      .where("purpose", "=", purpose)
      .orderBy("created_at")
      .execute();
  const fetchedDocument = (itemId: string) =>
    db().selectFrom("document").selectAll().where("processed_from_id", "=", itemId).where("fetch_status", "=", "fetched").executeTakeFirstOrThrow();
  const eventsOf = async (itemId: string) =>
    (await db().selectFrom("event_log").select(["event", "detail"]).where("inbox_item_id", "=", itemId).execute()).map((e) => e.event);
  const publicLinks = (html: string) => [...html.matchAll(/https:\/\/ecfx\.example\.test\/public\/document\/([\w.-]+)/g)].map((m) => m[1]!);

  let realtimePdf: Scenario;

  it("mails a REALTIME/PDF timekeeper once, with the stored document attached", async () => {
    realtimePdf = await scenario({ method: "PDF", cadence: "REALTIME" });
    const item = await deliver(realtimePdf);
    const mails = await mailsOf(item.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ purpose: "notice", inbox_item_id: item.id, to_addresses: JSON.stringify([realtimePdf.keepers[0]!.email]) });

    const parsed = await simpleParser(mails[0]!.raw);
    expect(parsed.replyTo?.text).toBe("docketing@lawfirm.test");
    expect(parsed.subject).toContain(`2:24-cv-${realtimePdf.serial}`);
    const stored = await running.ctx.blobs.read((await fetchedDocument(item.id)).file_id!);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]!.contentType).toBe("application/pdf");
    expect(Buffer.compare(parsed.attachments[0]!.content, stored)).toBe(0);

    const rows = await notificationsOf(item.id);
    expect(rows).toEqual([expect.objectContaining({ status: "sent", cadence: "realtime", delivery_method: "PDF", outbound_mail_id: mails[0]!.id })]);
    expect(await eventsOf(item.id)).toContain("notified");

    // The job once more (a retry, a second worker): the rows say it is done.
    await notifyInboxItem(running.ctx, item.id, 2);
    expect(await mailsOf(item.id)).toHaveLength(1);
  });

  it("holds the mail until the DMS attempt when the firm waits for it, and links the filed copies (DMS_LINK)", async () => {
    const store = await client.post("/api/v1/generic-credential", { name: "Notify store", field: `notify-${backend}` });
    const policy = await client.post("/api/v1/storage-policy", { name: "Notify policy", dms_credential_id: store.body.id, store_documents: true });
    expect(policy.status).toBe(201);
    await db().updateTable("firm").set({ storage_policy_id: policy.body.id, wait_for_dms_attempt_to_notify: 1 }).where("id", "=", firmId).execute();
    try {
      const s = await scenario({ method: "DMS_LINK", cadence: "REALTIME" });
      const item = await deliver(s);
      await worker.drain();
      const filed = await db()
        .selectFrom("dms_record")
        .selectAll()
        .where("inbox_item_id", "=", item.id)
        .where("what", "=", "document")
        .executeTakeFirstOrThrow();
      expect(filed.status).toBe("succeeded");
      const mails = await mailsOf(item.id);
      expect(mails).toHaveLength(1);
      // A link to the filed copy can only be in the mail if storing came first.
      expect(mails[0]!.html_body).toContain(`/load-dms/${filed.id}`);
      expect((await simpleParser(mails[0]!.raw)).attachments).toHaveLength(0);
    } finally {
      await db().updateTable("firm").set({ storage_policy_id: null, wait_for_dms_attempt_to_notify: 0 }).where("id", "=", firmId).execute();
    }
  });

  it("sends WEB_LINK recipients signed links, no attachment; the link opens the PDF until it expires", async () => {
    const s = await scenario({ method: "WEB_LINK", cadence: "REALTIME" });
    const item = await deliver(s);
    const [mail] = await mailsOf(item.id);
    const parsed = await simpleParser(mail!.raw);
    expect(parsed.attachments).toHaveLength(0);
    const [token] = publicLinks(mail!.html_body);
    expect(token).toBeTruthy();

    const doc = await fetchedDocument(item.id);
    const opened = await api(running.url).get(`/api/v1/public/document/${token}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-type")).toContain("application/pdf");
    expect(Buffer.compare(Buffer.from(opened.bytes), await running.ctx.blobs.read(doc.file_id!))).toBe(0);

    const weekAgo = { secrets: running.ctx.secrets, clock: { now: () => clock.now() - 7 * 24 * 3600_000 - 1000 } };
    const expired = await signPublicLink(weekAgo, { documentId: doc.id, firmId, timekeeperId: s.keepers[0]!.id });
    const refused = await api(running.url).get(`/api/v1/public/document/${expired}`);
    expect(refused.status).toBe(410);
    expect(refused.body.message).toMatch(/expired/);
    expect((await api(running.url).get(`/api/v1/public/document/${token!.slice(0, -3)}abc`)).status).toBe(404);
    // An access token is no document link.
    const admin = await login(running.url, DEMO.admin);
    expect((await api(running.url).get(`/api/v1/public/document/${admin.access_token}`)).status).toBe(404);

    await db().updateTable("firm").set({ public_document_access: 0 }).where("id", "=", firmId).execute();
    expect((await api(running.url).get(`/api/v1/public/document/${token}`)).status).toBe(403);
    await db().updateTable("firm").set({ public_document_access: 1 }).where("id", "=", firmId).execute();
  });

  // The console proxies the link without sign-in; its loader is called as Remix would call it.
  it.runIf(backend === backends[0])("serves the console's public document page: the PDF, or a page saying why not", async () => {
    process.env.ECFX_API_URL = running.url;
    process.env.ECFX_SESSION_SECRET ??= "notify-test-session-secret";
    const route = await import("../../app/routes/public.document.$token");
    const s = await scenario({ method: "WEB_LINK", cadence: "REALTIME" });
    const item = await deliver(s);
    const [token] = publicLinks((await mailsOf(item.id))[0]!.html_body);
    const open = (value: string) =>
      route.loader({ request: new Request(`https://ecfx.example.test/public/document/${value}`), params: { token: value }, context: {} });

    const pdf = await open(token!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const doc = await fetchedDocument(item.id);
    const weekAgo = { secrets: running.ctx.secrets, clock: { now: () => clock.now() - 8 * 24 * 3600_000 } };
    const expired = await open(await signPublicLink(weekAgo, { documentId: doc.id, firmId, timekeeperId: s.keepers[0]!.id }));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This document link has expired.");
    const invalid = await open("not-a-link");
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain("does not lead to a document");
  });

  it("tells a walled-out timekeeper nothing and refuses their link", async () => {
    const s = await scenario({ method: "WEB_LINK", cadence: "REALTIME", members: 2, matter: walledMatterId });
    const [inside, walled] = s.keepers as [Scenario["keepers"][number], Scenario["keepers"][number]];
    const wall = await client.post("/api/v1/ethical-wall", {
      name: `Wall ${s.serial}`,
      type: "exclusionary",
      matter_id: walledMatterId,
      timekeepers: [walled.id],
    });
    expect(wall.status).toBe(201);

    const item = await deliver(s);
    const mails = await mailsOf(item.id);
    expect(mails.map((m) => JSON.parse(m.to_addresses))).toEqual([[inside.email]]);
    expect(await mailsTo(walled.email, "notice")).toHaveLength(0);
    const rows = await notificationsOf(item.id);
    expect(rows.find((r) => r.email === walled.email)).toMatchObject({ status: "withheld", reason: "ethical wall", outbound_mail_id: null });
    expect(rows.find((r) => r.email === inside.email)).toMatchObject({ status: "sent" });

    const doc = await fetchedDocument(item.id);
    const walledLink = await signPublicLink(running.ctx, { documentId: doc.id, firmId, timekeeperId: walled.id });
    expect((await api(running.url).get(`/api/v1/public/document/${walledLink}`)).status).toBe(403);
    const [insideToken] = publicLinks(mails[0]!.html_body);
    expect((await api(running.url).get(`/api/v1/public/document/${insideToken}`)).status).toBe(200);
  });

  it("sends nothing to a NEVER group and records why", async () => {
    const s = await scenario({ method: "PDF", cadence: "NEVER" });
    const item = await deliver(s);
    expect(await mailsOf(item.id)).toHaveLength(0);
    expect(await notificationsOf(item.id)).toEqual([expect.objectContaining({ status: "skipped", email: s.keepers[0]!.email })]);
  });

  it.runIf(backend === "postgres")("reads who hears of a notice in one statement, as in several", async () => {
    const matching = await client.post("/api/v1/notification-rule", {
      name: "Dismissal copies",
      template: "motion DISMISS",
      include_emails: ["copies@lawfirm.test"],
    });
    const other = await client.post("/api/v1/notification-rule", { name: "All copies", template: "", exclude_emails: ["nobody@lawfirm.test"] });
    expect([matching.status, other.status]).toEqual([201, 201]);
    try {
      const s = await scenario({ method: "PDF", cadence: "NEVER", members: 3 });
      const item = await deliver(s);
      const database = running.ctx.database;
      const both = async () => {
        const inOne = await recipientRows(database, firmId, s.caseId, item.id);
        // The same reads one by one, as on SQLite.
        expect(inOne).toEqual(await recipientRows({ ...database, dialect: "sqlite" }, firmId, s.caseId, item.id));
        return inOne;
      };
      const all = await both();
      expect(all.assigned.map((t) => t.id).sort()).toEqual(s.keepers.map((k) => k.id).sort());
      expect(all.assigned[0]).toMatchObject({ group_id: s.groupId, delivery_method: "PDF", notification_cadence: "NEVER" });
      expect(all.rules.map((r) => r.name)).toEqual(expect.arrayContaining(["All copies", "Dismissal copies"]));
      expect(all.envelope?.docket_text).toBeTruthy();
      const documents = await loadDeliveryDocuments(running.ctx, item.id);
      expect(documents).toEqual(await loadDeliveryDocuments({ ...running.ctx, database: { ...database, dialect: "sqlite" } }, item.id));
      expect(documents[0]).toMatchObject({ number: expect.any(Number), fileId: expect.any(String), size: expect.any(Number) });
      // The group's template, read with its text; a template that is gone gives the default.
      const firm = (await findFirm(database, firmId))!;
      const templateOf = async () => {
        const inOneRead = await new TemplateSources(running.ctx, firm).forGroup(s.groupId);
        expect(inOneRead).toEqual(await new TemplateSources({ ...running.ctx, database: { ...database, dialect: "sqlite" } }, firm).forGroup(s.groupId));
        return inOneRead;
      };
      expect(await templateOf()).toBeTruthy();
      await db().updateTable("timekeeper_group").set({ email_template_id: "no-such-template" }).where("id", "=", s.groupId).execute();
      expect(await templateOf()).toBe(DEFAULT_TEMPLATE);
      // The rows recorded: the check and the insert in one statement after the lock, as in two.
      const recorded = async (on: typeof running.ctx) => {
        await db().deleteFrom("notification").where("inbox_item_id", "=", item.id).execute();
        await recordNotifications(on, firm, { id: item.id, case_id: s.caseId });
        return (await notificationsOf(item.id)).map(({ id: _id, ...row }) => row);
      };
      const rows = await recorded(running.ctx);
      expect(rows).toEqual(await recorded({ ...running.ctx, database: { ...database, dialect: "sqlite" } }));
      expect(rows.map((r) => r.email)).toEqual(expect.arrayContaining([...s.keepers.map((k) => k.email), "copies@lawfirm.test"]));
      // Recorded already: another run adds nothing, and the item is read without its recipients.
      await recordNotifications(running.ctx, firm, { id: item.id, case_id: s.caseId });
      expect(await notificationsOf(item.id)).toHaveLength(rows.length);
      expect(await itemToNotify(database, item.id)).toMatchObject({ recorded: true, recipients: null });
      await db().deleteFrom("notification").where("inbox_item_id", "=", item.id).execute();
      // None recorded: the item is read with the same rows.
      expect(await itemToNotify(database, item.id)).toMatchObject({ recorded: false, recipients: all });
      // A jurisdiction preference that applied and names a rule: that rule only.
      await db()
        .insertInto("jurisdiction_preference_rule")
        .values({ preference_id: "pref-one-statement", rule_id: matching.body.id, firm_id: firmId })
        .execute();
      await db().updateTable("inbox_item").set({ jurisdiction_preference_id: "pref-one-statement" }).where("id", "=", item.id).execute();
      expect((await both()).rules.map((r) => r.name)).toEqual(["Dismissal copies"]);
      // Nothing of the firm's on another firm's reading.
      const otherFirm = (await db().selectFrom("firm").select("id").where("id", "!=", firmId).executeTakeFirstOrThrow()).id;
      expect(await recipientRows(database, otherFirm, s.caseId, item.id)).toEqual({ assigned: [], rules: [], envelope: all.envelope });
    } finally {
      await db().deleteFrom("jurisdiction_preference_rule").where("preference_id", "=", "pref-one-statement").execute();
      await client.request("DELETE", `/api/v1/notification-rule/${matching.body.id}`);
      await client.request("DELETE", `/api/v1/notification-rule/${other.body.id}`);
    }
  });

  it.runIf(backend === "postgres")("claims a notification and records its mail in one statement, the same rows as the transaction", async () => {
    const s = await scenario({ method: "PDF", cadence: "NEVER" });
    const item = await deliver(s);
    const ctx = running.ctx;
    const ids = ["claim-one", "claim-several"];
    await db()
      .insertInto("notification")
      .values(
        ids.map((id) => ({
          id,
          firm_id: firmId,
          inbox_item_id: item.id,
          timekeeper_id: s.keepers[0]!.id,
          timekeeper_group_id: s.groupId,
          email: `${id}@lawfirm.test`,
          cadence: "realtime",
          delivery_method: "PDF",
          status: "pending",
          reason: "",
          outbound_mail_id: null,
          digest_run_id: null,
          created_at: clock.now(),
          sent_at: null,
        })),
      )
      .execute();
    const compose = (id: string) =>
      ctx.mailer.compose({ firmId, purpose: "notice", to: [`${id}@lawfirm.test`], subject: "S", text: "T", html: "<p>T</p>", inboxItemId: item.id });
    const inOne = await claimRowAndRecordMail(ctx, { id: ids[0]!, status: "pending" }, await compose(ids[0]!));
    // The transaction of several statements, as on SQLite.
    const inSeveral = await claimRowAndRecordMail(
      { ...ctx, database: { ...ctx.database, dialect: "sqlite" } },
      { id: ids[1]!, status: "pending" },
      await compose(ids[1]!),
    );
    const written = async (notificationId: string, mailId: string) => {
      const { id, email, outbound_mail_id, ...notification } = await db()
        .selectFrom("notification")
        .selectAll()
        .where("id", "=", notificationId)
        .executeTakeFirstOrThrow();
      const {
        id: mail,
        to_addresses,
        raw,
        message_id,
        ...recorded
      } = await db().selectFrom("outbound_mail").selectAll().where("id", "=", mailId).executeTakeFirstOrThrow();
      const notices = await db().selectFrom("outbound_mail_notice").select(["inbox_item_id", "firm_id"]).where("outbound_mail_id", "=", mailId).execute();
      expect([id, email, outbound_mail_id, mail, JSON.parse(to_addresses), raw.includes(message_id!)]).toEqual([
        notificationId,
        `${notificationId}@lawfirm.test`,
        mailId,
        mailId,
        [email],
        true,
      ]);
      return { notification, recorded, notices };
    };
    const one = await written(ids[0]!, inOne!.id);
    expect(one).toEqual(await written(ids[1]!, inSeveral!.id));
    expect(one).toMatchObject({
      notification: { status: "sending" },
      recorded: { status: "sending" },
      notices: [{ inbox_item_id: item.id }],
    });
    // Sent: the mail's mark and the row's in one statement, the same rows as one after the other.
    const outcome = { status: "captured", error: null };
    await markRowSent(ctx, ids[0]!, inOne!, outcome);
    await markRowSent({ ...ctx, database: { ...ctx.database, dialect: "sqlite" } }, ids[1]!, inSeveral!, outcome);
    const marked = await written(ids[0]!, inOne!.id);
    expect(marked).toEqual(await written(ids[1]!, inSeveral!.id));
    expect(marked).toMatchObject({ notification: { status: "sent", sent_at: clock.now() }, recorded: { status: "captured", error: null } });
    // A row already claimed is not claimed again: nothing more is recorded.
    const before = await mailsOf(item.id);
    expect(await claimRowAndRecordMail(ctx, { id: ids[0]!, status: "pending" }, await compose(ids[0]!))).toBeNull();
    expect(await mailsOf(item.id)).toEqual(before);
    await db().deleteFrom("notification").where("id", "in", ids).execute();
    await db().deleteFrom("outbound_mail").where("id", "in", [inOne!.id, inSeveral!.id]).execute();
  });

  it.runIf(backend === "postgres")("reads what the pending mails are made of in one statement, as in several", async () => {
    const s = await scenario({ method: "PDF", cadence: "NEVER" });
    const item = await deliver(s);
    const ctx = running.ctx;
    const firm = (await findFirm(ctx.database, firmId))!;
    const asSqlite = { ...ctx, database: { ...ctx.database, dialect: "sqlite" as const } };
    const both = async () => {
      const [inOne, inSeveral] = [await readPendingMail(ctx, firm, item.id), await readPendingMail(asSqlite, firm, item.id)];
      const groups = [s.groupId, null];
      const templates = (read: typeof inOne) => Promise.all(groups.map((group) => read?.templates.forGroup(group)));
      expect({ ...inOne, templates: await templates(inOne) }).toEqual({ ...inSeveral, templates: await templates(inSeveral) });
      return inOne;
    };
    // Nothing unsent (the group hears of nothing): nothing else is read.
    expect(await both()).toBeNull();
    const row = (id: string, groupId: string | null, status: string) => ({
      id,
      firm_id: firmId,
      inbox_item_id: item.id,
      timekeeper_id: groupId ? s.keepers[0]!.id : null,
      timekeeper_group_id: groupId,
      email: `${id}@lawfirm.test`,
      cadence: "realtime",
      delivery_method: "PDF",
      status,
      reason: "",
      outbound_mail_id: null,
      digest_run_id: null,
      created_at: clock.now(),
      sent_at: null,
    });
    await db()
      .insertInto("notification")
      .values([row("pending-b", s.groupId, "pending"), row("pending-a", null, "sending"), row("pending-sent", s.groupId, "sent")])
      .execute();
    try {
      const read = (await both())!;
      expect(read.rows.map((r) => [r.id, r.timekeeper_name])).toEqual([
        ["pending-a", null],
        ["pending-b", `Keeper ${s.serial}-0`],
      ]);
      expect(read.data?.case.number).toBe(`2:24-cv-${s.serial}`);
      expect(read.documents[0]).toMatchObject({ fileId: expect.any(String), size: expect.any(Number) });
      // A group whose template is gone, and no firm default: the default template, on both paths.
      await db().updateTable("timekeeper_group").set({ email_template_id: "no-such-template" }).where("id", "=", s.groupId).execute();
      expect(await (await readPendingMail(ctx, firm, item.id))!.templates.forGroup(s.groupId)).toBe(DEFAULT_TEMPLATE);
      await both();
    } finally {
      await db().deleteFrom("notification").where("id", "in", ["pending-a", "pending-b", "pending-sent"]).execute();
    }
  });

  it.runIf(backend === "postgres")("records the notifications of a notice once when two runs record them at once", async () => {
    const s = await scenario({ method: "PDF", cadence: "NEVER", members: 2 });
    const item = await deliver(s);
    const ctx = running.ctx;
    const firm = (await findFirm(ctx.database, firmId))!;
    const recorded = () => notificationsOf(item.id);
    const planned = (await recorded()).length;
    expect(planned).toBe(2);
    await db().deleteFrom("notification").where("inbox_item_id", "=", item.id).execute();
    const record = (on = ctx) => recordNotifications(on, firm, { id: item.id, case_id: s.caseId });
    /** A run that records in a transaction left open until `end` is called; it rolls back when told. */
    const openRun = async () => {
      let end!: (rollBack: boolean) => void;
      let recordedInIt!: () => void;
      const inserted = new Promise<void>((resolve) => (recordedInIt = resolve));
      const done = db()
        .transaction()
        .execute(async (trx) => {
          await record({ ...ctx, database: { ...ctx.database, db: trx } });
          recordedInIt();
          if (await new Promise<boolean>((resolve) => (end = resolve))) throw new Error("rolled back");
        });
      await inserted;
      return { end: (rollBack: boolean) => end(rollBack), done };
    };
    // A second run starts while the first's rows are uncommitted, so its snapshot has none of
    // them: it waits for the first and writes nothing.
    const first = await openRun();
    let secondDone = false;
    const second = record().then(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone).toBe(false);
    first.end(false);
    await Promise.all([first.done, second]);
    expect(await recorded()).toHaveLength(planned);
    // A first run that does not commit: the second records them.
    await db().deleteFrom("notification").where("inbox_item_id", "=", item.id).execute();
    const stopped = await openRun();
    const again = record();
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopped.end(true);
    await expect(stopped.done).rejects.toThrow("rolled back");
    await again;
    expect(await recorded()).toHaveLength(planned);
  });

  it.runIf(backend === "postgres")("stores a received message with its job and event in one statement, the same rows as the transaction", async () => {
    // Due a year on: the worker leaves these items alone.
    const later = clock.now() + 365 * 86_400_000;
    const ctx = { ...running.ctx, clock: { now: () => later } };
    const message = { firmId, raw: noticeFor(999, 999), source: "SMTP" as const, sender: "ecf@txed.uscourts.gov", recipients: [DEMO_INBOX] };
    const written = async (itemId: string) => {
      const { id, ...item } = await db().selectFrom("inbox_item").selectAll().where("id", "=", itemId).executeTakeFirstOrThrow();
      const jobs = await db()
        .selectFrom("job")
        .select(["kind", "firm_id", "run_at", "attempts", "locked_until", "created_at"])
        .where("ref_id", "=", id)
        .execute();
      const events = await db().selectFrom("event_log").select(["firm_id", "level", "event", "detail", "created_at"]).where("inbox_item_id", "=", id).execute();
      const deliveries = await db().selectFrom("webhook_delivery").select(["event", "status"]).where("inbox_item_id", "=", id).execute();
      return { item, jobs, events, deliveries };
    };
    const hook = await client.post("/api/v1/webhook", { name: "Received hook", url: "https://hooks.example.test/received", events: ["notice.received"] });
    expect(hook.status).toBe(201);
    try {
      expect((await client.request("PATCH", `/api/v1/webhook/${hook.body.id}`, { json: { enabled: false } })).status).toBe(200);
      const inOne = await written(await receiveMessage(ctx, message));
      // The transaction of several statements, as on SQLite.
      const inSeveral = await written(await receiveMessage({ ...ctx, database: { ...ctx.database, dialect: "sqlite" } }, message));
      expect(inOne).toEqual(inSeveral);
      expect(inOne).toMatchObject({
        item: { status: "New" },
        jobs: [{ kind: "process-inbox-item", run_at: later }],
        events: [{ event: "received" }],
        deliveries: [],
      });
      // A webhook that hears of it: its delivery is written with the item, on both paths.
      expect((await client.request("PATCH", `/api/v1/webhook/${hook.body.id}`, { json: { enabled: true } })).status).toBe(200);
      const heard = await written(await receiveMessage(ctx, message));
      expect(heard).toEqual({ ...inOne, deliveries: [{ event: "notice.received", status: "pending" }] });
    } finally {
      await client.request("DELETE", `/api/v1/webhook/${hook.body.id}`);
      const items = db().selectFrom("inbox_item").select("id").where("created_at", "=", later);
      await db().deleteFrom("webhook_delivery").where("inbox_item_id", "in", items).execute();
      await db().deleteFrom("job").where("created_at", "=", later).execute();
      await db().deleteFrom("event_log").where("inbox_item_id", "in", items).execute();
      await db().deleteFrom("inbox_item").where("created_at", "=", later).execute();
    }
  });

  it("mails DAILY_AND_REALTIME now and keeps a digest line; a matching rule adds its address with the firm's defaults", async () => {
    const rule = await client.post("/api/v1/notification-rule", { name: "Dismissals", template: "motion DISMISS", include_emails: ["partner@lawfirm.test"] });
    const unmatched = await client.post("/api/v1/notification-rule", { name: "Sanctions", template: "sanctions", include_emails: ["nobody@lawfirm.test"] });
    expect([rule.status, unmatched.status]).toEqual([201, 201]);
    try {
      const s = await scenario({ method: "WEB_LINK", cadence: "DAILY_AND_REALTIME" });
      const item = await deliver(s);
      const rows = await notificationsOf(item.id);
      expect(rows.map((r) => [r.email, r.cadence, r.status, r.delivery_method])).toEqual(
        expect.arrayContaining([
          [s.keepers[0]!.email, "realtime", "sent", "WEB_LINK"],
          [s.keepers[0]!.email, "digest", "pending", "WEB_LINK"],
          ["partner@lawfirm.test", "realtime", "sent", "PDF"],
        ]),
      );
      expect(rows).toHaveLength(3);
      const partner = await simpleParser((await mailsTo("partner@lawfirm.test", "notice"))[0]!.raw);
      expect(partner.attachments).toHaveLength(1);
    } finally {
      await client.request("DELETE", `/api/v1/notification-rule/${rule.body.id}`);
      await client.request("DELETE", `/api/v1/notification-rule/${unmatched.body.id}`);
    }
  });

  it("retries when the relay refuses, then marks the notification failed", async () => {
    const captured = running.ctx.mailer;
    running.ctx.mailer = createMailer({ database: running.ctx.database, clock, from: "no-reply@ecfx.test", relayUrl: "smtp://127.0.0.1:9" });
    try {
      const item = await deliver(realtimePdf);
      for (let i = 0; i < 6; i++) {
        const waiting = await db().selectFrom("job").select("id").where("kind", "=", "notify-inbox-item").where("ref_id", "=", item.id).executeTakeFirst();
        if (!waiting) break;
        clock.advance(10 * 60_000);
        await worker.drain();
      }
      const [row] = await notificationsOf(item.id);
      // The one message recorded before the first attempt is offered each time, never a second one.
      const mails = await mailsOf(item.id);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.status).toBe("failed");
      expect(row).toMatchObject({ status: "failed", outbound_mail_id: mails[0]!.id });
      expect(row!.reason).toMatch(/relay refused/i);
      const events = await eventsOf(item.id);
      expect(events.filter((e) => e === "notification retry")).toHaveLength(4);
      expect(events.filter((e) => e === "notification sent again")).toHaveLength(4);
      expect(events).toContain("notification failed");
    } finally {
      running.ctx.mailer = captured;
    }
  });

  let daily: Scenario;
  const digestTimes = async () => (await mailsTo(daily.keepers[0]!.email, "digest")).map((m) => new Date(m.created_at).toISOString());

  it("keeps DAILY notices for the digest and sends exactly one at the group's time", async () => {
    daily = await scenario({ method: "PDF", cadence: "DAILY", activityReport: true });
    const item = await deliver(daily);
    expect(await mailsOf(item.id)).toHaveLength(0);
    expect(await notificationsOf(item.id)).toEqual([expect.objectContaining({ status: "pending", cadence: "digest" })]);

    setClock("2026-03-06T11:59:00Z");
    await runDueDigests(running.ctx);
    expect(await digestTimes()).toEqual([]);

    setClock("2026-03-06T12:00:00Z");
    await runDueDigests(running.ctx);
    const [digest] = await mailsTo(daily.keepers[0]!.email, "digest");
    expect(digest).toBeDefined();
    const parsed = await simpleParser(digest!.raw);
    expect(parsed.text).toContain(`2:24-cv-${daily.serial}`);
    expect(parsed.attachments).toHaveLength(1);
    expect(Buffer.compare(parsed.attachments[0]!.content, await running.ctx.blobs.read((await fetchedDocument(item.id)).file_id!))).toBe(0);
    expect(await notificationsOf(item.id)).toEqual([
      expect.objectContaining({ status: "sent", outbound_mail_id: digest!.id, digest_run_id: expect.any(String) }),
    ]);

    await runDueDigests(running.ctx);
    await Promise.all([runDueDigests(running.ctx), runDueDigests(running.ctx)]);
    expect(await digestTimes()).toEqual(["2026-03-06T12:00:00.000Z"]);
  });

  it("holds a notice that arrives after the digest until the next day, and two schedulers send it once", async () => {
    setClock("2026-03-06T12:30:00Z");
    const item = await deliver(daily);
    setClock("2026-03-07T11:59:00Z");
    await runDueDigests(running.ctx);
    expect(await digestTimes()).toHaveLength(1);

    setClock("2026-03-07T12:00:00Z");
    await Promise.all([runDueDigests(running.ctx), runDueDigests(running.ctx)]);
    const schedulers = [startDigestScheduler(running.ctx, { intervalMs: 20 }), startDigestScheduler(running.ctx, { intervalMs: 20 })];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(schedulers.map((s) => s.stop()));
    expect(await digestTimes()).toEqual(["2026-03-06T12:00:00.000Z", "2026-03-07T12:00:00.000Z"]);
    expect(await notificationsOf(item.id)).toEqual([expect.objectContaining({ status: "sent" })]);
    const runs = await db().selectFrom("digest_run").selectAll().where("timekeeper_group_id", "=", daily.groupId).where("kind", "=", "digest").execute();
    expect(runs.map((r) => r.local_date).sort()).toEqual(["2026-03-06", "2026-03-07"]);

    // The group also asked for the activity report: yesterday's items, counted and listed.
    const reports = await mailsTo(daily.keepers[0]!.email, "activity-report");
    expect(reports.map((m) => new Date(m.created_at).toISOString())).toEqual(["2026-03-06T12:00:00.000Z", "2026-03-07T12:00:00.000Z"]);
    const local06 = { from: Date.parse("2026-03-06T05:00:00Z"), to: Date.parse("2026-03-07T05:00:00Z") };
    const items = await db()
      .selectFrom("inbox_item")
      .select("id")
      .where("firm_id", "=", firmId)
      .where("hidden", "=", 0)
      .where("created_at", ">=", local06.from)
      .where("created_at", "<", local06.to)
      .execute();
    expect(reports[1]!.subject).toBe("ECFX activity report for 2026-03-06");
    expect(reports[1]!.text_body).toContain(`ECFX received ${items.length} notices`);
    expect(reports[1]!.text_body).toContain(`2:24-cv-${daily.serial}`);
  });

  /** A notice at local midnight, then the digest: not a minute early, on time. */
  async function digestDay(early: string, due: string) {
    setClock(`${due.slice(0, 10)}T05:00:00Z`);
    await deliver(daily);
    const before = (await digestTimes()).length;
    setClock(early);
    await runDueDigests(running.ctx);
    expect(await digestTimes()).toHaveLength(before);
    setClock(due);
    await runDueDigests(running.ctx);
    expect((await digestTimes()).slice(before)).toEqual([new Date(due).toISOString()]);
  }

  it("sends at 07:00 New York time across the spring change (12:00Z, then 11:00Z)", async () => {
    await digestDay("2026-03-08T10:59:00Z", "2026-03-08T11:00:00Z");
    await digestDay("2026-03-09T10:59:00Z", "2026-03-09T11:00:00Z");
    expect((await digestTimes()).slice(1)).toEqual(["2026-03-07T12:00:00.000Z", "2026-03-08T11:00:00.000Z", "2026-03-09T11:00:00.000Z"]);
  });

  it("sends at 07:00 New York time across the autumn change (11:00Z, then 12:00Z)", async () => {
    await digestDay("2026-10-31T10:59:00Z", "2026-10-31T11:00:00Z");
    await digestDay("2026-11-01T11:59:00Z", "2026-11-01T12:00:00Z");
    await digestDay("2026-11-02T11:59:00Z", "2026-11-02T12:00:00Z");
  });
});
