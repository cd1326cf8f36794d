import type { ServerContext } from "../context";
import { withFirmWords } from "../db/firm-words";
import { escapeHtml } from "../lib/html";
import { message } from "../lib/messages";

// The firm's error recipients (firm.error_notification_emails) are told of the events logged at
// or above the firm's level (firm.error_notification_level), in one mail per run of the scheduler
// listing what is new since the last one, never a mail per event. A run claims the firm's span by
// moving its marker (compare and set), so of several workers exactly one sends each span.

const LEVELS = ["INFO", "AUDIT", "WARNING", "ERROR", "CRITICAL"] as const;
/** Events listed in one mail; the rest are counted. */
export const ERROR_REPORT_LIST = 50;

const atOrAbove = (level: string) => LEVELS.slice(Math.max(0, LEVELS.indexOf(level as (typeof LEVELS)[number])));

export async function sendErrorReports(ctx: ServerContext, now = ctx.clock.now()): Promise<number> {
  const db = ctx.database.db;
  const firms = await db
    .selectFrom("firm")
    .select(["id", "name", "error_notification_emails", "error_notification_level", "error_reported_until", "reply_to_email"])
    .where("error_notification_emails", "<>", "[]")
    .execute();
  let sent = 0;
  for (const firm of firms) {
    const to = JSON.parse(firm.error_notification_emails) as string[];
    if (to.length === 0) continue;
    const from = Number(firm.error_reported_until);
    // Compare and set: only the run that moves the marker from `from` reports this span.
    const claimed = await db
      .updateTable("firm")
      .set({ error_reported_until: now })
      .where("id", "=", firm.id)
      .where("error_reported_until", "=", from)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1 || from === 0) continue;
    const levels = atOrAbove(firm.error_notification_level);
    const events = await db
      .selectFrom("event_log")
      .select(["level", "event", "detail", "inbox_item_id", "created_at"])
      .where("firm_id", "=", firm.id)
      .where("level", "in", levels)
      .where("created_at", ">", from)
      .where("created_at", "<=", now)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    if (events.length === 0) continue;
    await withFirmWords(ctx.database, firm.id, () => mailReport(ctx, firm, to, events));
    sent++;
  }
  return sent;
}

type ReportedFirm = { id: number; name: string; error_notification_level: string; reply_to_email: string | null };
type ReportedEvent = { level: string; event: string; detail: string | null; inbox_item_id: string | null; created_at: number };

/** One firm's report mail, in the firm's words. */
async function mailReport(ctx: ServerContext, firm: ReportedFirm, to: string[], events: ReportedEvent[]): Promise<void> {
  const listed = events.slice(0, ERROR_REPORT_LIST);
  const lines = listed.map((e) => {
    const link = e.inbox_item_id ? ` ${ctx.config.publicUrl}/inbox-items/id/${e.inbox_item_id}` : "";
    return `${new Date(Number(e.created_at)).toISOString()} ${e.level} ${message(`inbox:events.${e.event}`, { defaultValue: e.event })}: ${e.detail}${link}`;
  });
  if (events.length > ERROR_REPORT_LIST) lines.push(message("mail:errorReportMore", { count: events.length - ERROR_REPORT_LIST }));
  const intro = message("mail:errorReportBody", { level: firm.error_notification_level, firm: firm.name });
  await ctx.mailer.send({
    firmId: firm.id,
    purpose: "error-report",
    to,
    replyTo: firm.reply_to_email || undefined,
    noticeIds: listed.flatMap((e) => (e.inbox_item_id ? [e.inbox_item_id] : [])),
    subject: message("mail:errorReportSubject", { count: events.length, level: firm.error_notification_level }),
    text: `${intro}\n\n${lines.join("\n")}\n`,
    html: `<p>${escapeHtml(intro)}</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
  });
}
