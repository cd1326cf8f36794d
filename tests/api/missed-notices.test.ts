import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedEntry } from "../../server/courts/simulator";
import { receiveMessage } from "../../server/inbox/receive";
import { deliverRecordedMail } from "../../server/notify/deliver-recorded-mail";
import { checkMissedNotices } from "../../server/pipeline/missed-notices";
import { requeueStalledWork } from "../../server/pipeline/requeue-stalled";
import { nef } from "../../server/seed/demo-notices";
import { backends, testClock } from "./harness";
import { TRACKED_NUMBER as NUMBER, TRACK_COURT as COURT, type TrackBed, startTrackBed } from "./track-bed";

// Missed-notice reconciliation of ECFX Track: an entry of a tracked case's court feed with no
// e-mail notice within the firm's hours raises one Action Required item and one mail to the
// firm's missed-notice recipients; a notice in time raises nothing; a late one resolves the item.

const MINUTE = 60_000;
const DOCKETING = "docketing@lawfirm.test";

describe.each(backends)("missed-notice reconciliation (%s)", (backend) => {
  const clock = testClock();
  let bed: TrackBed;
  const running = () => bed.running;

  beforeAll(async () => {
    bed = await startTrackBed(backend, clock);
    const { admin, firmId } = bed;
    const firm = (await admin.get("/api/v1/firm")).body;
    // The firm waits two hours for a notice and names its docketing team.
    expect((await admin.put(`/api/v1/firm/${firmId}`, { ...firm, missed_notice_hours: 0 })).status).toBe(400);
    const saved = await admin.put(`/api/v1/firm/${firmId}`, { ...firm, missed_notice_hours: 2, missed_notice_report_emails: [DOCKETING] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ missed_notice_hours: 2, missed_notice_report_emails: [DOCKETING] });
  });

  afterAll(async () => {
    await bed?.close();
  });

  const docket = (shortDescription: string) => bed.docket(shortDescription);
  const later = (minutes: number) => bed.later(minutes);

  /** The court's e-mail notice of the entry reaches the firm's inbox now. */
  const mailNotice = (entry: PublishedEntry) =>
    receiveMessage(running().ctx, {
      firmId: bed.firmId,
      source: "SMTP",
      raw: Buffer.from(
        nef({
          court: COURT,
          number: NUMBER,
          caseName: "Chau v. Donovan",
          entry: { short: entry.shortDescription, text: `${entry.shortDescription.toUpperCase()} filed by Chau.` },
          n: Number(entry.sequence),
          docId: entry.documentId,
          day: new Date(clock.now()),
        }).raw,
      ),
    });

  const missedItems = () =>
    running()
      .ctx.database.db.selectFrom("missed_notice")
      .innerJoin("inbox_item", "inbox_item.id", "missed_notice.inbox_item_id")
      .select([
        "inbox_item.id",
        "inbox_item.source",
        "inbox_item.status",
        "inbox_item.action_required",
        "inbox_item.reason",
        "inbox_item.case_id",
        "inbox_item.duplicate_of_id",
      ])
      .select(["missed_notice.entry_key", "missed_notice.notice_item_id", "missed_notice.resolved_at"])
      .where("missed_notice.firm_id", "=", bed.firmId)
      .orderBy("missed_notice.raised_at")
      .execute();

  const missedMail = () =>
    running()
      .ctx.database.db.selectFrom("outbound_mail")
      .select(["to_addresses", "subject", "text_body", "status", "inbox_item_id"])
      .where("purpose", "=", "missed-notice")
      .orderBy("created_at")
      .execute();

  it("raises one Action Required item and one mail to the docketing team for an entry without a notice, and none for an entry from before tracking", async () => {
    docket("Complaint"); // before the subscription: never received, never missed
    clock.advance(MINUTE);
    expect((await bed.admin.post(`/api/v1/case/${bed.caseId}/tracking`, { action: "subscribe" })).status).toBe(200);
    clock.advance(MINUTE);
    docket("Notice of Appearance");
    await later(1);
    await later(60);
    expect(await missedItems()).toEqual([]);

    await later(60); // 2 hours and 1 minute since the entry
    for (let i = 0; i < 3; i++) await later(6); // more checks find it raised already
    const items = await missedItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ source: "TRACK", status: "Action Required", action_required: "USER", case_id: bed.caseId, resolved_at: null });
    expect(items[0]!.reason).toContain(`${NUMBER} Chau v. Donovan`);
    expect(items[0]!.reason).toContain("entry 12 of ");
    expect(items[0]!.reason).toContain("“Notice of Appearance”");
    expect(items[0]!.reason).toContain("in the 2 hours since");
    // The item is on the inbox like any notice of the case.
    const listed = await bed.admin.get(`/api/v1/inbox/${items[0]!.id}/card`);
    expect(listed.status).toBe(200);

    const mail = await missedMail();
    expect(mail).toHaveLength(1);
    expect(JSON.parse(mail[0]!.to_addresses)).toEqual([DOCKETING]);
    expect(mail[0]).toMatchObject({ status: "captured", inbox_item_id: items[0]!.id, subject: `Missed court notice: ${NUMBER} Chau v. Donovan, entry 12` });
    expect(mail[0]!.text_body).toContain("“Notice of Appearance”");
  });

  it("raises nothing when the notice came in time, before or after the court's feed listed the entry", async () => {
    const first = docket("Order on Motion");
    await mailNotice(first); // the e-mail before the feed is read
    const second = docket("Memorandum of Law");
    await later(1);
    await later(30);
    await mailNotice(second); // the e-mail half an hour after the entry
    await later(60);
    await later(60);
    await later(6);
    expect(await missedItems()).toHaveLength(1);
    expect(await missedMail()).toHaveLength(1);
  });

  it("resolves and links the missed item when its notice arrives late", async () => {
    const entry = docket("Scheduling Order");
    await later(6); // the next poll of the feed receives it
    await later(120);
    let items = await missedItems();
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ status: "Action Required", resolved_at: null });
    expect(await missedMail()).toHaveLength(2);

    const notice = await mailNotice(entry);
    await later(1);
    await later(6);
    items = await missedItems();
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ status: "Succeeded", action_required: "NONE", duplicate_of_id: notice, notice_item_id: notice });
    expect(items[1]!.resolved_at).not.toBeNull();
    // The first, still without its notice, stays open; no more mail is sent.
    expect(items[0]).toMatchObject({ status: "Action Required", resolved_at: null });
    expect(await missedMail()).toHaveLength(2);
  });

  it("raises one item when checks run at once, and leaves a timekeeper an ethical wall keeps out of the case off the mail", async () => {
    const walled = "wendy.walled@lawfirm.test";
    const wendy = (await bed.admin.post("/api/v1/timekeeper", { full_name: "Wendy Walled", email: walled })).body.id;
    const matter = (await bed.admin.get(`/api/v1/case/${bed.caseId}`)).body.matter_id;
    expect((await bed.admin.post("/api/v1/ethical-wall", { name: "Not Wendy", type: "exclusionary", matter_id: matter, timekeepers: [wendy] })).status).toBe(
      201,
    );
    await running()
      .ctx.database.db.updateTable("firm")
      .set({ internal_walls_enabled: 1, missed_notice_report_emails: JSON.stringify([walled, DOCKETING]) })
      .where("id", "=", bed.firmId)
      .execute();

    docket("Letter");
    await later(6);
    clock.advance(3 * 60 * MINUTE);
    await Promise.all([checkMissedNotices(running().ctx, bed.firmId, "first"), checkMissedNotices(running().ctx, bed.firmId, "second"), later(0)]);
    await later(1);
    const items = await missedItems();
    expect(items).toHaveLength(3);
    expect(items[2]!.reason).toContain("“Letter”");
    const mail = await missedMail();
    expect(mail).toHaveLength(3);
    expect(JSON.parse(mail[2]!.to_addresses)).toEqual([DOCKETING]);
  });

  it("has the worker's sweep start the check again when a crash lost it", async () => {
    const checks = () => running().ctx.database.db.selectFrom("job").select("ref_id").where("kind", "=", "check-missed-notices").execute();
    expect(await checks()).toEqual([{ ref_id: String(bed.firmId) }]);
    await running().ctx.database.db.deleteFrom("job").where("kind", "=", "check-missed-notices").execute();
    await requeueStalledWork(running().ctx);
    expect(await checks()).toEqual([{ ref_id: String(bed.firmId) }]);
  });

  it("takes a text-only entry as noticed by a text-only notice of its case", async () => {
    const origin = `https://ecf.${COURT}.uscourts.gov`;
    bed.simulator.setFeed(
      COURT,
      `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0"><channel><title>${COURT}</title><link>${origin}</link>
<item>
<title>${NUMBER} Chau v. Donovan et al</title>
<link>${origin}/cgi-bin/DktRpt.pl?492165</link>
<description>[Order on Motion to Adjourn Conference] </description>
<guid isPermaLink="true">${origin}/cgi-bin/DktRpt.pl?492165&amp;90</guid>
<pubDate>${new Date(clock.now()).toUTCString()}</pubDate>
</item>
</channel></rss>
`,
    );
    await later(6);
    const textOnly = nef({
      court: COURT,
      number: NUMBER,
      caseName: "Chau v. Donovan",
      entry: { short: "Order on Motion to Adjourn Conference", text: "ORDER granting Letter Motion to Adjourn Conference." },
      n: 90,
      docId: "127122264390",
      day: new Date(clock.now()),
    })
      .raw.replace(/<a href="[^"]*doc1[^"]*">\d+<\/a>/, "No document attached")
      .replace(/<div><p>The following document[\s\S]*?<\/div>/, "");
    await receiveMessage(running().ctx, { firmId: bed.firmId, source: "SMTP", raw: Buffer.from(textOnly) });
    await later(150);
    await later(6);
    expect((await missedItems()).filter((item) => item.entry_key.endsWith("&90"))).toEqual([]);
    const entry = await running()
      .ctx.database.db.selectFrom("case_docket_entry")
      .select("checked_at")
      .where("entry_key", "like", "%&90")
      .executeTakeFirstOrThrow();
    expect(entry.checked_at).not.toBeNull();
  });

  it("notes in the missed notice's history when the relay refuses its mail", async () => {
    const { ctx } = running();
    const mail = await ctx.database.db
      .selectFrom("outbound_mail")
      .select(["id", "inbox_item_id"])
      .where("purpose", "=", "missed-notice")
      .executeTakeFirstOrThrow();
    await ctx.database.db.updateTable("outbound_mail").set({ status: "failed" }).where("id", "=", mail.id).execute();
    const refusing = { ...ctx, mailer: { ...ctx.mailer, deliver: () => Promise.reject(new Error("550 mailbox unavailable")) } };
    await expect(deliverRecordedMail(refusing, mail.id, 1)).rejects.toThrow("550 mailbox unavailable");
    const events = await ctx.database.db
      .selectFrom("event_log")
      .select(["event", "detail", "level"])
      .where("inbox_item_id", "=", mail.inbox_item_id)
      .where("level", "=", "WARNING")
      .orderBy("created_at")
      .execute();
    expect(events.at(-1)).toEqual({ event: "missed notice mail not sent", detail: "550 mailbox unavailable (1/5)", level: "WARNING" });
  });
});
