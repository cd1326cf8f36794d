import { describe, expect, it } from "vitest";
import { logEvent } from "../../server/queue/event-log";
import { sendErrorReports } from "../../server/notify/error-report";
import { DEMO, backends, useApi } from "./harness";

// Error notification mail: the firm's error recipients hear, in one mail per run, of the events
// logged at or above the firm's level since the last report; two schedulers never both send.
describe.each(backends)("error reports (%s)", (backend) => {
  const server = useApi({ backend });
  const db = () => server().ctx.database.db;
  const reports = async () =>
    db().selectFrom("outbound_mail").select(["to_addresses", "subject", "text_body"]).where("purpose", "=", "error-report").orderBy("created_at").execute();

  it("tells the recipients of what is at or above the level, once, and then only of what is new", async () => {
    const firm = await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow();
    const firmId = firm.firm_id;
    await db()
      .updateTable("firm")
      .set({ error_notification_emails: JSON.stringify(["it-desk@lawfirm.test"]), error_notification_level: "ERROR" })
      .where("id", "=", firmId)
      .execute();
    const t0 = Date.now();
    // The first run only starts the firm's span: what came before is not mailed.
    expect(await sendErrorReports(server().ctx, t0)).toBe(0);
    await logEvent(db(), { firmId, level: "WARNING", event: "retry", detail: "WARNED-ONLY", at: t0 + 1 });
    await logEvent(db(), { firmId, level: "ERROR", event: "storage failed", detail: "DISK-FULL", at: t0 + 2 });
    await logEvent(db(), { firmId, level: "CRITICAL", event: "failed", detail: "ALL-DOWN", at: t0 + 3 });

    // Two schedulers at once: one mail.
    const sent = await Promise.all([sendErrorReports(server().ctx, t0 + 10), sendErrorReports(server().ctx, t0 + 10)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    let mails = await reports();
    expect(mails).toHaveLength(1);
    expect(JSON.parse(mails[0]!.to_addresses)).toEqual(["it-desk@lawfirm.test"]);
    expect(mails[0]!.subject).toBe("ECFX: 2 events at ERROR or above");
    expect(mails[0]!.text_body).toContain("DISK-FULL");
    expect(mails[0]!.text_body).toContain("ALL-DOWN");
    expect(mails[0]!.text_body).not.toContain("WARNED-ONLY");

    expect(await sendErrorReports(server().ctx, t0 + 20)).toBe(0);
    await logEvent(db(), { firmId, level: "ERROR", event: "storage failed", detail: "SECOND-ERROR", at: t0 + 21 });
    expect(await sendErrorReports(server().ctx, t0 + 30)).toBe(1);
    mails = await reports();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text_body).toContain("SECOND-ERROR");
    expect(mails[1]!.text_body).not.toContain("DISK-FULL");

    // Another firm's events never reach this firm's recipients.
    const other = await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.secondAdmin).executeTakeFirstOrThrow();
    await logEvent(db(), { firmId: other.firm_id, level: "CRITICAL", event: "failed", detail: "OTHER-FIRM", at: t0 + 31 });
    expect(await sendErrorReports(server().ctx, t0 + 40)).toBe(0);
    expect((await reports()).some((m) => m.text_body.includes("OTHER-FIRM"))).toBe(false);
  });
});
