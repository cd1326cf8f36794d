import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueDelivery } from "../../server/webhooks/webhook-events";
import { sendErrorReports } from "../../server/notify/error-report";
import { reportManualProcessing } from "../../server/notify/firm-report-mail";
import { type ApiResponse, type RunningApi, DEMO, api, backends, creator, login, startApi } from "./harness";

// A walled canary notice and everything the product says about it elsewhere: the deliveries of
// a webhook that announced it, and the mail sent about it (the notification with its PDF, the
// manual-processing report, the error report). Roles refused the webhooks page see no delivery
// at all; a caller an ethical wall keeps out of the notice's matter sees none of that data, on
// any list, read or count; another firm's administrator neither. The console's /dev pages show
// only what /api/v1/outbox answers (the console never reads the database).

const CANARY = "Quetzalcanary";
const RAW = `From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: ${CANARY} notice\r\n\r\nA notice.\r\n`;

describe.each(backends)("walled notice data in deliveries and mail (%s)", (backend) => {
  let running: RunningApi;
  let firmId = 0;
  const ids: Record<string, string> = {};
  const mails: string[] = [];
  const as: Record<"admin" | "walledAdmin" | "viewOnly" | "docketing" | "secondAdmin", ReturnType<typeof api>> = {} as never;
  const db = () => running.ctx.database.db;

  beforeAll(async () => {
    running = await startApi({ backend });
    const admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    as.admin = admin;
    const post = creator(admin);
    firmId = (await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    ids.walled = await post("/api/v1/timekeeper", { full_name: "Walter Walled", email: "walter@lawfirm.test" });
    ids.client = await post("/api/v1/client", { name: "Quetzal Client", unique_key: "C-QTZ" });
    ids.matter = await post("/api/v1/matter", { name: "Quetzal matter", unique_key: "M-QTZ", client_id: ids.client });
    const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. quetzal", ecfx_jurisdictions: ["nysd"] });
    ids.case = await post("/api/v1/case", {
      name: "Quetzal v. Open",
      case_number: "1:24-cv-05555",
      matter_id: ids.matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [ids.walled],
    });
    await post("/api/v1/ethical-wall", { name: "Keep Walter out", type: "exclusionary", matter_id: ids.matter, timekeepers: [ids.walled] });
    await db().updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();

    const upload = await admin.request("POST", "/api/v1/inbox/upload", { body: RAW, headers: { "content-type": "message/rfc822" } });
    ids.item = upload.body.id;
    await db()
      .updateTable("inbox_item")
      .set({ case_id: ids.case, subject: `${CANARY} walled subject`, disposition: "Processed", status: "Succeeded" })
      .where("id", "=", ids.item!)
      .execute();
    const item = { id: ids.item!, firm_id: firmId, subject: `${CANARY} walled subject` };

    // A webhook that announced the walled notice, and a test event nobody is walled from.
    ids.webhook = await post("/api/v1/webhook", { name: "Quetzal hook", url: "https://hooks.example.test/ecfx", events: ["notice.received"] });
    const now = Date.now();
    const delivery = (inboxItemId: string | null, body: string, event: string) =>
      queueDelivery(db(), { firmId, webhookId: ids.webhook!, event, eventId: `${event}-${now}`, payloadVersion: "1", inboxItemId, body, at: now });
    ids.walledDelivery = await delivery(ids.item!, JSON.stringify({ data: { subject: `${CANARY} walled subject`, case: "1:24-cv-05555" } }), "notice.received");
    ids.openDelivery = await delivery(null, JSON.stringify({ data: { test: true } }), "webhook.test");

    // The notice's notification with its PDF, the manual-processing report and the error report.
    const notification = await running.ctx.mailer.send({
      firmId,
      purpose: "notification",
      to: ["walter@lawfirm.test"],
      subject: `${CANARY} notification`,
      text: `${CANARY} docket text`,
      html: `<p>${CANARY} docket text</p>`,
      inboxItemId: ids.item!,
      attachments: [{ filename: `${CANARY}-order.pdf`, content: Buffer.from(`%PDF-1.4 ${CANARY}`), contentType: "application/pdf" }],
    });
    mails.push(notification.id);
    await db()
      .updateTable("firm")
      .set({
        manual_process_emails: JSON.stringify(["clerk@lawfirm.test"]),
        error_notification_emails: JSON.stringify(["ops@lawfirm.test"]),
        error_reported_until: 1,
      })
      .where("id", "=", firmId)
      .execute();
    await reportManualProcessing(running.ctx, item);
    await db()
      .insertInto("event_log")
      .values({
        id: `ev-${now}`,
        firm_id: firmId,
        inbox_item_id: ids.item!,
        level: "ERROR",
        event: "failed",
        detail: `${CANARY} could not be filed`,
        created_at: now,
      })
      .execute();
    expect(await sendErrorReports(running.ctx, now + 1)).toBe(1);
    const reports = await db()
      .selectFrom("outbound_mail")
      .select("id")
      .where("firm_id", "=", firmId)
      .where("purpose", "in", ["manual-process", "error-report"])
      .execute();
    expect(reports).toHaveLength(2);
    mails.push(...reports.map((r) => r.id));
    ids.openMail = (
      await running.ctx.mailer.send({ firmId, purpose: "password-reset", to: ["someone@lawfirm.test"], subject: "Open mail", text: "-", html: "-" })
    ).id;

    // A second administrator, and the two low roles, each linked to the walled-out timekeeper.
    const adminRole = await db().selectFrom("app_user").select(["security_role_id", "password_hash"]).where("email", "=", DEMO.admin).executeTakeFirstOrThrow();
    await post("/api/v1/user", {
      email: "walled.admin@demo.ecfx.test",
      full_name: "Walled Admin",
      display_name: "Walled",
      security_role_id: adminRole.security_role_id,
    });
    await db().updateTable("app_user").set({ password_hash: adminRole.password_hash }).where("email", "=", "walled.admin@demo.ecfx.test").execute();
    await db()
      .updateTable("app_user")
      .set({ timekeeper_id: ids.walled })
      .where("email", "in", ["walled.admin@demo.ecfx.test", DEMO.viewOnly, DEMO.docketing])
      .execute();
    as.walledAdmin = api(running.url, (await login(running.url, "walled.admin@demo.ecfx.test")).access_token);
    as.viewOnly = api(running.url, (await login(running.url, DEMO.viewOnly)).access_token);
    as.docketing = api(running.url, (await login(running.url, DEMO.docketing)).access_token);
    as.secondAdmin = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
  });

  afterAll(async () => {
    await running?.close();
  });

  const noCanary = (answers: ApiResponse[]) => {
    for (const answer of answers) expect(answer.text).not.toMatch(new RegExp(CANARY, "i"));
  };

  it("refuses the delivery log to roles refused the webhooks page", async () => {
    for (const low of [as.viewOnly, as.docketing]) {
      expect((await low.get("/api/v1/webhook/search")).status).toBe(403);
      const log = await low.get(`/api/v1/webhook/${ids.webhook}/deliveries`);
      expect(log.status).toBe(403);
      noCanary([log]);
    }
  });

  it("leaves a walled notice's deliveries out of the log, its count and its re-send", async () => {
    const log = await as.walledAdmin.get(`/api/v1/webhook/${ids.webhook}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.rows.map((r: { id: string }) => r.id)).toEqual([ids.openDelivery]);
    expect(log.body.total).toBe(1);
    noCanary([log]);
    expect((await as.walledAdmin.post(`/api/v1/webhook-delivery/${ids.walledDelivery}/resend`)).status).toBe(404);
    expect((await as.walledAdmin.post(`/api/v1/webhook-delivery/${ids.openDelivery}/resend`)).status).toBe(202);

    const other = [
      await as.secondAdmin.get(`/api/v1/webhook/${ids.webhook}/deliveries`),
      await as.secondAdmin.post(`/api/v1/webhook-delivery/${ids.walledDelivery}/resend`),
    ];
    expect(other.map((a) => a.status)).toEqual([404, 404]);

    const open = await as.admin.get(`/api/v1/webhook/${ids.webhook}/deliveries`);
    expect(open.body.rows.map((r: { id: string }) => r.id)).toContain(ids.walledDelivery);
    expect(open.text).toContain(CANARY);
  });

  it("keeps a walled notice's mail, its attachment and its count from a walled administrator", async () => {
    const search = await as.walledAdmin.get("/api/v1/outbox/search?max=100");
    expect(search.status).toBe(200);
    const listed = search.body.map((m: { id: string }) => m.id);
    for (const id of mails) expect(listed).not.toContain(id);
    expect(listed).toContain(ids.openMail);
    const reads = await Promise.all(mails.map((id) => as.walledAdmin.get(`/api/v1/outbox/${id}`)));
    expect(reads.map((r) => r.status)).toEqual(mails.map(() => 404));
    noCanary([search, ...reads]);
    const summary = await as.walledAdmin.get("/api/v1/dashboard/summary");
    expect(summary.body.outbound_mail).toBe(Number(search.headers.get("x-total-count")));

    const other = await Promise.all([as.secondAdmin.get("/api/v1/outbox/search?max=100"), ...mails.map((id) => as.secondAdmin.get(`/api/v1/outbox/${id}`))]);
    expect(other.map((a) => a.status)).toEqual([200, ...mails.map(() => 404)]);
    noCanary(other);

    // Nobody walled: every one of them, the attachment with its mail.
    const open = await as.admin.get("/api/v1/outbox/search?max=100");
    expect(Number(open.headers.get("x-total-count"))).toBe(Number(search.headers.get("x-total-count")) + mails.length);
    const notification = await as.admin.get(`/api/v1/outbox/${mails[0]}`);
    expect(notification.status).toBe(200);
    expect(notification.body.raw).toContain(`${CANARY}-order.pdf`);
    for (const id of mails.slice(1)) expect((await as.admin.get(`/api/v1/outbox/${id}`)).text).toContain(CANARY);
  });
});
