import { type Selectable, sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import type { Database } from "../db/database";
import type { NotificationTable, OutboundMailRow } from "../db/schema";
import { inJob } from "../db/job-reads";
import { findFirm } from "../firm/firm-repository";
import { message } from "../lib/messages";
import { pauseAt } from "../lib/test-pause";
import { type EventName, logEvent } from "../queue/event-log";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhook-events";
import { wallsForCase } from "../walls/walls";
import { composeNotice } from "./notice-mail";
import { claimRowAndRecordMail, markRowSent } from "./claimed-mail";
import { UNSENT, readPendingMail } from "./pending-mail";
import { type RecipientRows, recipientColumns } from "./recipient-inputs";
import { recordNotifications } from "./record-notifications";

/** Attempts of a notify job before its unsent notifications are marked failed. */
export const MAX_NOTIFY_ATTEMPTS = 5;

type NotificationRow = Selectable<NotificationTable>;

/**
 * Tells the people who want to hear about a processed notice, as their groups say: records one
 * notification per recipient (once), then sends the real-time ones still pending. A mail the
 * relay refuses fails the job, which is retried; past MAX_NOTIFY_ATTEMPTS what is unsent is
 * marked failed with the reason.
 */
export async function notifyInboxItem(ctx: ServerContext, itemId: string, attempt: number): Promise<void> {
  const db = ctx.database.db;
  const item = await itemToNotify(ctx.database, itemId);
  if (!item?.case_id || item.disposition !== "Processed") return;
  const firm = await findFirm(ctx.database, item.firm_id);
  if (!firm) return;
  if (!item.recorded) await recordNotifications(ctx, firm, { id: item.id, case_id: item.case_id }, item.recipients ?? undefined);
  // `into`: a transaction the entry commits with, else the database itself.
  const log = (event: EventName, detail: string, level: "INFO" | "WARNING" | "ERROR" = "INFO", into = db) =>
    logEvent(into, { firmId: firm.id, inboxItemId: item.id, event, detail, level, at: ctx.clock.now() });
  try {
    await sendPendingRealtime(ctx, firm, { id: item.id, case_id: item.case_id }, log);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    if (attempt < MAX_NOTIFY_ATTEMPTS) {
      await log("notification retry", reason, "WARNING");
      throw error;
    }
    await db
      .updateTable("notification")
      .set({ status: "failed", reason })
      .where("inbox_item_id", "=", item.id)
      .where("cadence", "=", "realtime")
      .where("status", "in", UNSENT)
      .execute();
    await log("notification failed", message("pipeline:events.withCounts", { reason, counts: await countsOf(ctx, item.id) }), "ERROR");
    return;
  }
  const counts = await countsOf(ctx, item.id);
  // In a job the firm's webhooks are known (with the claim on PostgreSQL): with none to tell, the entry alone.
  if (ctx.database.dialect === "postgres" && inJob() && (await webhookSubscribers(db, firm.id, "notification.sent")).length === 0) {
    await log("notified", counts);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await log("notified", counts, "INFO", trx);
    await emitWebhookEvent(trx, { firmId: firm.id, event: "notification.sent", inboxItemId: item.id, at: ctx.clock.now() });
  });
}

/**
 * The item and whether its notifications are recorded already; on PostgreSQL, when they are not
 * and it is a processed notice on a case, with who is to hear of it (the rows of recordNotifications).
 */
export function itemToNotify(database: Database, itemId: string) {
  const { db } = database;
  const recorded = sql<boolean>`exists (select 1 from notification where notification.inbox_item_id = inbox_item.id)`;
  const read = db
    .selectFrom("inbox_item")
    .select(["id", "firm_id", "case_id", "disposition", recorded.as("recorded")])
    .where("id", "=", itemId);
  if (database.dialect !== "postgres") return read.select(sql<RecipientRows | null>`null`.as("recipients")).executeTakeFirst();
  const recipients = recipientColumns(db, sql.ref("inbox_item.firm_id"), sql.ref("inbox_item.case_id"), itemId);
  return read
    .select(
      sql<RecipientRows | null>`(select row_to_json(x) from (select ${recipients}) x
        where inbox_item.case_id is not null and inbox_item.disposition = 'Processed' and not ${recorded})`.as("recipients"),
    )
    .executeTakeFirst();
}

async function sendPendingRealtime(
  ctx: ServerContext,
  firm: FirmRecord,
  item: { id: string; case_id: string },
  log: (event: EventName, detail: string, level?: "WARNING") => Promise<void>,
): Promise<void> {
  const db = ctx.database.db;
  const pending = await readPendingMail(ctx, firm, item.id);
  if (!pending) return;
  const { rows, data, documents, templates } = pending;
  if (!data) throw new Error(message("mail:notifyNoNoticeData"));
  const walls = await wallsForCase(db, firm.id, item.case_id);
  for (const row of rows) {
    // A wall put up since the rows were recorded still holds.
    if (row.timekeeper_id && walls.isWalledOut(row.timekeeper_id)) {
      await db
        .updateTable("notification")
        .set({ status: "withheld", reason: message("mail:notifyReasonWall") })
        .where("id", "=", row.id)
        .execute();
      continue;
    }
    // Recorded by an attempt that stopped before it knew the outcome: finish that mail, never a second one.
    if (row.status === "sending" && (await finishInterrupted(ctx, row, log))) continue;
    const composed = await composeNotice(ctx, {
      firm,
      data,
      documents,
      method: row.delivery_method,
      recipient: { email: row.email, name: (row.timekeeper_id && row.timekeeper_name) || undefined, timekeeperId: row.timekeeper_id },
      templateSource: await templates.forGroup(row.timekeeper_group_id),
    });
    if (composed.templateProblem) await log("template failed", composed.templateProblem, "WARNING");
    const mail = await ctx.mailer.compose({
      firmId: firm.id,
      purpose: "notice",
      to: [row.email],
      replyTo: firm.reply_to_email || undefined,
      subject: composed.mail.subject,
      text: composed.mail.text,
      html: composed.mail.html,
      inboxItemId: item.id,
      attachments: composed.delivery.attachments,
    });
    // The mail is recorded, and the row claimed for it, before anything leaves: at most one mail per row.
    const recorded = await claimRowAndRecordMail(ctx, row, mail);
    // Another job took this row meanwhile; it sends the mail.
    if (!recorded) continue;
    await pauseAt("mail-recorded");
    await sendAndMark(ctx, row.id, recorded);
  }
}

/** Sends the row's recorded mail, then marks the mail and the row sent; a refusal is marked on the mail and thrown. */
async function sendAndMark(ctx: ServerContext, rowId: string, mail: OutboundMailRow): Promise<void> {
  const outcome = await ctx.mailer.transmit(mail);
  if (outcome.status === "failed") await ctx.mailer.settle(mail, outcome);
  await pauseAt("mail-sent");
  await markRowSent(ctx, rowId, mail, outcome);
}

/**
 * A row left "sending": its mail went out when the record says so (then the row is only marked);
 * otherwise the very same message is sent again, with its Message-ID, so a receiving server that
 * already has it can drop the copy. False when there is no recorded mail to finish.
 */
async function finishInterrupted(
  ctx: ServerContext,
  row: NotificationRow,
  log: (event: EventName, detail: string, level?: "WARNING") => Promise<void>,
): Promise<boolean> {
  const mail = row.outbound_mail_id
    ? await ctx.database.db.selectFrom("outbound_mail").selectAll().where("id", "=", row.outbound_mail_id).executeTakeFirst()
    : undefined;
  if (!mail) return false;
  if (mail.status === "sent" || mail.status === "captured") {
    await pauseAt("mail-sent");
    await markRowSent(ctx, row.id, mail);
    return true;
  }
  await log("notification sent again", message("mail:notifyResent", { email: row.email, messageId: mail.message_id ?? mail.id }), "WARNING");
  await sendAndMark(ctx, row.id, mail);
  return true;
}

/** "1 sent, 2 digest pending, 1 withheld": the item's notifications by outcome, for the event log. */
async function countsOf(ctx: ServerContext, itemId: string): Promise<string> {
  const rows = await ctx.database.db.selectFrom("notification").select(["status", "cadence"]).where("inbox_item_id", "=", itemId).execute();
  const label = (r: { status: string; cadence: string }) => (r.status === "pending" && r.cadence === "digest" ? "digestPending" : r.status);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(label(row), (counts.get(label(row)) ?? 0) + 1);
  if (!counts.size) return message("pipeline:events.noRecipients");
  return [...counts].map(([what, count]) => message(`pipeline:events.notifications.${what}`, { count })).join(", ");
}
