import type { ServerContext } from "../context";
import { findFirm } from "../firm/firm-repository";
import { message } from "../lib/messages";
import { previousLocalDay } from "./digest-schedule";
import type { DigestSchedule } from "./digest-schedules";
import { type NoticeSummary, loadNoticeSummaries, summaryTitle } from "./notice-summaries";
import { layoutMail } from "./simple-mail";
import { wallCheck } from "../walls/walls";

/**
 * The daily activity report of a group: to each active member, the firm's inbox items of the
 * past local day, counted by status and listed. Items on a case a member is walled out of are
 * left out of that member's report, counts included.
 */
export async function sendActivityReport(ctx: ServerContext, schedule: DigestSchedule, localDate: string, run: { createdAt: number }): Promise<void> {
  const firm = await findFirm(ctx.database, schedule.firmId);
  if (!firm || !schedule.groupId) return;
  const members = await ctx.database.db
    .selectFrom("timekeeper")
    .select(["id", "email"])
    .where("firm_id", "=", firm.id)
    .where("timekeeper_group_id", "=", schedule.groupId)
    .where("status", "<>", "inactive")
    .where("email", "<>", "")
    .orderBy("email")
    .execute();
  if (members.length === 0) return;
  const day = previousLocalDay(localDate, schedule.timeZone);
  const items = await loadNoticeSummaries(ctx, { firmId: firm.id, from: day.from, to: day.to });
  const walledOut = wallCheck(ctx.database.db, firm.id);
  const told = new Set<string>();
  for (const member of members) {
    const email = member.email.trim().toLowerCase();
    if (told.has(email) || (await reportedSince(ctx, firm.id, email, run.createdAt))) continue;
    told.add(email);
    const visible: NoticeSummary[] = [];
    for (const item of items) if (!(await walledOut(item.caseId, member.id))) visible.push(item);
    await ctx.mailer.send({
      firmId: firm.id,
      purpose: "activity-report",
      to: [email],
      replyTo: firm.reply_to_email || undefined,
      noticeIds: visible.map((item) => item.id),
      ...composeReport(ctx, firm.name, day.date, visible),
    });
  }
}

/** A report of this run that already went out before an earlier attempt failed. */
async function reportedSince(ctx: ServerContext, firmId: number, email: string, since: number): Promise<boolean> {
  const sent = await ctx.database.db
    .selectFrom("outbound_mail")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("purpose", "=", "activity-report")
    .where("to_addresses", "=", JSON.stringify([email]))
    .where("status", "<>", "failed")
    .where("created_at", ">=", since)
    .executeTakeFirst();
  return Boolean(sent);
}

function composeReport(ctx: ServerContext, firmName: string, date: string, items: NoticeSummary[]) {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  const { html, text } = layoutMail({
    heading: message("mail:activityHeading", { date }),
    intro: message("mail:activityIntro", { firm: firmName, date, count: items.length }),
    sections: items.length
      ? [
          {
            title: message("mail:activityByStatus"),
            lines: [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => ({ text: `${status}: ${n}` })),
          },
          {
            title: message("mail:activityNotices"),
            lines: items.map((item) => ({ text: summaryTitle(item), href: `${ctx.config.publicUrl}/inbox-items/id/${item.id}`, note: `(${item.status})` })),
          },
        ]
      : [],
    footer: message("mail:activityFooter", { firm: firmName }),
  });
  return { subject: message("mail:activitySubject", { date }), html, text };
}
