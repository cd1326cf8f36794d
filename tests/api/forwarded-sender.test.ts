import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { DEMO, type RunningApi, api, backends, login, startApi } from "./harness";

// The sender a notice shows and the one the firm's domain rules judge (decision 104): the card
// names the From header and the envelope it was received from; the accepted and ignored domains
// judge the court's address wherever the forwarding chain names it, never the firm's own mailbox
// that passed it on, and court mail is still never ignored without the card saying so (decision 092).

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices", name), "latin1");
const withId = (raw: string, id: string) => raw.replace(/^Message-I[Dd]:.*$/im, `Message-ID: <${id}>`);
// The firm's mailbox forwards court mail to its ECFX inbox: the envelope is the forwarding host's.
const FORWARDER = "root@vm.lawfirm.test";

describe.each(backends)("the sender of forwarded court mail (%s)", (backend) => {
  let running: RunningApi;
  let worker: Worker;
  let admin: ReturnType<typeof api>;
  let firmId = 0;
  let sequence = 0;

  beforeAll(async () => {
    running = await startApi({ backend });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 1);
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    firmId = Number((await admin.get("/api/v1/firm")).body.id);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
  });

  async function setFirm(changes: Record<string, unknown>) {
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    const saved = await admin.put(`/api/v1/firm/${String(firm.id)}`, { ...firm, accepted_email_domains: [], ignored_email_domains: [], ...changes });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }

  /** A fixture received by SMTP with a Message-ID of its own (no duplicate of an earlier test's), then processed. */
  async function receive(name: string, sender = FORWARDER, edit: (raw: string) => string = (raw) => raw) {
    const raw = edit(withId(fixture(name), `fwd-${String(++sequence)}@lawfirm.test`));
    const id = await receiveMessage(running.ctx, { firmId, raw: Buffer.from(raw, "latin1"), source: "SMTP", sender });
    await worker.drain();
    const card = await admin.get(`/api/v1/inbox/${id}/card`);
    expect(card.status).toBe(200);
    return { item: card.body.item, events: card.body.events.map((e: { event: string }) => e.event) as string[] };
  }

  it("shows the From header on the card and the envelope it was received from", async () => {
    await setFirm({});
    const { item } = await receive("nef-forwarded-gmail.eml");
    expect(item.from_address).toBe("sikeda@lawfirm.test");
    expect(item.sender).toBe(FORWARDER);
  });

  it("never lets the firm's own forwarding domain, ignored, drop a forwarded court notice", async () => {
    await setFirm({ ignored_email_domains: ["lawfirm.test"] });
    for (const name of ["nef-forwarded-gmail.eml", "nef-forwarded-outlook.eml", "nef-attached-message.eml"]) {
      const { item, events } = await receive(name);
      expect(events, name).toContain("parsed");
      expect(events, name).not.toContain("ignored sender");
      expect(item.disposition_text, name).not.toContain("ignored");
    }
  });

  it("accepts a forwarded notice by its court's domain, not by the mailbox that passed it on", async () => {
    await setFirm({ accepted_email_domains: ["uscourts.test"] });
    for (const name of ["nef-forwarded-gmail.eml", "nef-forwarded-outlook.eml", "nef-attached-message.eml"]) {
      const { events } = await receive(name);
      expect(events, name).not.toContain("sender not accepted");
    }
    // Resent by the firm's mailbox: the From header is still the court's.
    const resent = await receive("nef-html-windows-1252.eml", FORWARDER, (raw) => `Resent-From: docketing@lawfirm.test\r\n${raw}`);
    expect(resent.events).not.toContain("sender not accepted");
  });

  it("puts a forwarded notice before a person when its court's domain is not accepted, naming the court", async () => {
    await setFirm({ accepted_email_domains: ["lawfirm.test"] });
    const { item, events } = await receive("nef-forwarded-gmail.eml");
    expect(events).toContain("sender not accepted");
    expect(item).toMatchObject({ status: "Action Required", action_required: "USER" });
    expect(item.reason).toContain("txsb.uscourts.test");
  });

  it("ignores forwarded court mail only when a rule names the court's domain, and the card says so", async () => {
    await setFirm({ ignored_email_domains: ["uscourts.test"] });
    const { item, events } = await receive("nef-forwarded-outlook.eml");
    expect(events).toContain("ignored sender");
    expect(item).toMatchObject({
      status: "Succeeded",
      disposition: "Ignored",
      disposition_text: "Court mail from ared.uscourts.test is ignored: the firm's ignored e-mail domains name it.",
    });
    await setFirm({ ignored_email_domains: [] });
  });
});
