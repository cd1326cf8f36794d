import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { DEMO, type RunningApi, api, backends, login, startApi } from "./harness";

// Court mail is never ignored without a person being asked (decision 092): what no parser reads
// waits as Action Required and the firm's error recipients are mailed; ordinary mail is ignored
// and its card says why; domain rules cannot drop court mail silently; a reply or forward of a
// notice is linked to the original, or processed as the notice when the firm has none.

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices", name), "latin1");
const withId = (raw: string, id: string) => raw.replace(/^Message-I[Dd]:.*$/im, `Message-ID: <${id}>`);

describe.each(backends)("court mail reaches a person (%s)", (backend) => {
  let running: RunningApi;
  let worker: Worker;
  let admin: ReturnType<typeof api>;
  let firmId = 0;

  beforeAll(async () => {
    running = await startApi({ backend });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 1);
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    firmId = Number((await admin.get("/api/v1/firm")).body.id);
    await setFirm({ error_notification_emails: ["errors@lawfirm.test"] });
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
  });

  async function setFirm(changes: Record<string, unknown>) {
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    const saved = await admin.put(`/api/v1/firm/${String(firm.id)}`, { ...firm, ...changes });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }

  /** Received as the SMTP listener receives it (with its envelope sender), then processed. */
  async function receive(raw: string, sender: string) {
    const id = await receiveMessage(running.ctx, { firmId, raw: Buffer.from(raw, "latin1"), source: "SMTP", sender });
    await worker.drain();
    const card = (await admin.get(`/api/v1/inbox/${id}/card`)).body;
    return { id, item: card.item, events: card.events.map((e: { event: string }) => e.event) };
  }

  const courtMails = (id: string) =>
    running.ctx.database.db
      .selectFrom("outbound_mail")
      .select(["purpose", "to_addresses"])
      .where("inbox_item_id", "=", id)
      .where("purpose", "=", "court-mail")
      .execute();

  it("puts court mail in no known layout before a person, with the reason, and mails the error recipients", async () => {
    const raw = [
      "From: ECF Help Desk <ecf_help@txed.uscourts.gov>",
      "Message-ID: <help-1@txed.uscourts.gov>",
      "Subject: Your filing in 2:24-cv-123",
      "Content-Type: text/plain",
      "",
      "Your filing was received and is being reviewed by the clerk.",
    ].join("\r\n");
    const { id, item, events } = await receive(raw, "ecf_help@txed.uscourts.gov");
    expect(item).toMatchObject({ status: "Action Required", action_required: "USER", disposition: "No Disposition" });
    expect(item.reason).toBe("A court message we could not read (mail from a court or e-filing provider (uscourts.gov) that no parser reads).");
    expect(events).toContain("unrecognised");
    expect(await courtMails(id)).toEqual([{ purpose: "court-mail", to_addresses: JSON.stringify(["errors@lawfirm.test"]) }]);
  });

  it("ignores an out-of-office reply and says why on its card", async () => {
    const { id, item } = await receive(withId(fixture("out-of-office.eml"), "ooo-1@firm.test"), "hlowe@firm.test");
    expect(item).toMatchObject({ status: "Succeeded", disposition: "Ignored", disposition_text: "automatic reply" });
    expect(await courtMails(id)).toEqual([]);
  });

  it("treats mail from a sender the firm lists as a court's like court mail", async () => {
    const raw = (n: number) =>
      [
        `From: Clerk <clerk@county.example.gov>`,
        `Message-ID: <county-${n}@county.example.gov>`,
        "Subject: Hearing moved",
        "Content-Type: text/plain",
        "",
        "The hearing is moved to Friday.",
      ].join("\r\n");
    expect((await receive(raw(1), "clerk@county.example.gov")).item).toMatchObject({
      status: "Succeeded",
      disposition: "Ignored",
      disposition_text: "no court notice found",
    });

    await setFirm({ court_mail_senders: ["county.example.gov"] });
    const { id, item } = await receive(raw(2), "clerk@county.example.gov");
    expect(item).toMatchObject({ status: "Action Required", action_required: "USER" });
    expect(item.reason).toContain("clerk@county.example.gov");
    expect(await courtMails(id)).toHaveLength(1);
    await setFirm({ court_mail_senders: [] });
  });

  it("refuses a court sender list entry that is neither an address nor a domain", async () => {
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    const refused = await admin.put(`/api/v1/firm/${String(firm.id)}`, { ...firm, court_mail_senders: ["not a domain"] });
    expect(refused.status).toBe(400);
  });

  it("puts a notice from a domain the firm does not accept before a person, and says so when the firm ignores the domain", async () => {
    await setFirm({ accepted_email_domains: ["lawfirm.test"] });
    const refused = await receive(withId(fixture("nef-html-windows-1252.eml"), "accepted-1@paed.uscourts.gov"), "ecf_paed@paed.uscourts.gov");
    expect(refused.item).toMatchObject({ status: "Action Required", action_required: "USER" });
    expect(refused.item.reason).toContain("paed.uscourts.gov");
    expect(refused.events).toContain("sender not accepted");
    expect(await courtMails(refused.id)).toHaveLength(1);

    // "uscourts.gov" covers the court's own sub-domain.
    await setFirm({ accepted_email_domains: [], ignored_email_domains: ["uscourts.gov"] });
    const ignored = await receive(withId(fixture("nef-html-windows-1252.eml"), "ignored-1@paed.uscourts.gov"), "ecf_paed@paed.uscourts.gov");
    expect(ignored.item).toMatchObject({
      status: "Succeeded",
      disposition: "Ignored",
      disposition_text: "Court mail from paed.uscourts.gov is ignored: the firm's ignored e-mail domains name it.",
    });
    await setFirm({ ignored_email_domains: [] });
  });

  it("links a reply or forward of a notice to the original, and processes the quoted notice when the firm has no original", async () => {
    // The colleague's reply arrives first: no original, so the quoted notice is processed as itself.
    const reply = await receive(withId(fixture("reply-quoting-notice.eml"), "reply-1@szabo-mdl.test"), "rszabo@szabo-mdl.test");
    expect(reply.item.disposition).not.toBe("Ignored");
    expect(reply.events).toContain("parsed");

    // The court's original arrives; a forward of it afterwards is linked to it by court, docket and entry.
    const original = await receive(withId(fixture("nef-district-qp-utf8.eml"), "orig-1@txed.uscourts.gov"), "txed_cmecf@txed.uscourts.gov");
    expect(original.item.disposition).not.toBe("Ignored");
    const forward = fixture("nef-district-qp-utf8.eml")
      .replace(/^Subject: /m, "Subject: FW: ")
      .replace(/^From:.*$/m, "From: Jordan Avery <javery@lawfirm.test>");
    const linked = await receive(withId(forward, "fwd-1@lawfirm.test"), "javery@lawfirm.test");
    expect(linked.item).toMatchObject({
      status: "Succeeded",
      disposition: "Ignored",
      duplicate_of_id: original.id,
      disposition_text: "A forward of a notice received before; linked to it.",
    });
    expect(linked.events).toContain("quoted notice linked");
  });
});
