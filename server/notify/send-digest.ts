import type { Selectable } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import type { NotificationTable } from "../db/schema";
import { findFirm } from "../firm/firm-repository";
import { message } from "../lib/messages";
import { logEvent } from "../queue/event-log";
import { buildDelivery, loadDeliveryDocuments } from "./delivery";
import type { DigestSchedule } from "./digest-schedules";
import { type NoticeSummary, loadNoticeSummaries, summaryTitle } from "./notice-summaries";
import { type MailSection, layoutMail } from "./simple-mail";
import { wallCheck } from "../walls/walls";

type NotificationRow = Selectable<NotificationTable>;

/** The pending digest notifications of a schedule: its group's, or for the firm's own schedule those of no (remaining) group. */
function pendingFor(ctx: ServerContext, schedule: DigestSchedule) {
  return ctx.database.db
    .selectFrom("notification")
    .selectAll()
    .where("firm_id", "=", schedule.firmId)
    .where("cadence", "=", "digest")
    .where("status", "in", ["pending", "sending"])
    .where((eb) =>
      schedule.groupId
        ? eb("timekeeper_group_id", "=", schedule.groupId)
        : eb.or([
            eb("timekeeper_group_id", "is", null),
            eb.not(
              eb.exists(
                eb.selectFrom("timekeeper_group").select("timekeeper_group.id").whereRef("timekeeper_group.id", "=", "notification.timekeeper_group_id"),
              ),
            ),
          ]),
    )
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/**
 * Sends one digest per address listing all its pending digest notifications of this schedule,
 * and marks them sent with the run. A recipient walled out since is withheld. Throws when the
 * relay refuses; what was sent before stays sent, the rest stays pending for the next attempt.
 */
export async function sendDigest(ctx: ServerContext, schedule: DigestSchedule, runId: string): Promise<void> {
  const waiting = await pendingFor(ctx, schedule);
  const firm = await findFirm(ctx.database, schedule.firmId);
  if (waiting.length === 0 || !firm) return;
  const rows = await finishInterrupted(ctx, waiting, runId);
  const summaries = new Map((await loadNoticeSummaries(ctx, { ids: [...new Set(rows.map((r) => r.inbox_item_id))] })).map((s) => [s.id, s]));
  const walledOut = wallCheck(ctx.database.db, firm.id);
  const byEmail = new Map<string, NotificationRow[]>();
  for (const row of rows) byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), row]);

  for (const [email, own] of byEmail) {
    const told: NotificationRow[] = [];
    for (const row of own) {
      if (await walledOut(summaries.get(row.inbox_item_id)?.caseId ?? null, row.timekeeper_id)) {
        await ctx.database.db
          .updateTable("notification")
          .set({ status: "withheld", reason: message("mail:notifyReasonWall") })
          .where("id", "=", row.id)
          .execute();
      } else told.push(row);
    }
    if (told.length === 0) continue;
    const mail = await ctx.mailer.compose({
      firmId: firm.id,
      purpose: "digest",
      to: [email],
      replyTo: firm.reply_to_email || undefined,
      noticeIds: told.map((r) => r.inbox_item_id),
      ...(await composeDigest(ctx, firm, told, summaries)),
    });
    // The digest is recorded, and its lines claimed for it, before anything leaves: at most one mail per line.
    const recorded = await ctx.database.db.transaction().execute(async (trx) => {
      const row = await ctx.mailer.record(trx, mail);
      const ids = told.map((r) => r.id);
      await trx.updateTable("notification").set({ status: "sending", outbound_mail_id: row.id }).where("id", "in", ids).execute();
      return row;
    });
    await markSent(ctx, told, await ctx.mailer.deliver(recorded), runId);
    const now = ctx.clock.now();
    for (const itemId of new Set(told.map((r) => r.inbox_item_id))) {
      await logEvent(ctx.database.db, { firmId: firm.id, inboxItemId: itemId, event: "notified", detail: message("mail:digestEvent", { email }), at: now });
    }
  }
}

async function markSent(ctx: ServerContext, rows: NotificationRow[], mail: { id: string }, runId: string): Promise<void> {
  await ctx.database.db
    .updateTable("notification")
    .set({ status: "sent", sent_at: ctx.clock.now(), outbound_mail_id: mail.id, digest_run_id: runId })
    .where(
      "id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
}

/**
 * Lines left "sending" by an attempt cut short: when their recorded digest went out they are only
 * marked; otherwise that very message (same Message-ID) is sent again. Answers the lines still pending.
 */
async function finishInterrupted(ctx: ServerContext, rows: NotificationRow[], runId: string): Promise<NotificationRow[]> {
  const byMail = new Map<string, NotificationRow[]>();
  for (const row of rows) {
    if (row.status === "sending" && row.outbound_mail_id) byMail.set(row.outbound_mail_id, [...(byMail.get(row.outbound_mail_id) ?? []), row]);
  }
  const finished = new Set<string>();
  for (const [mailId, lines] of byMail) {
    const mail = await ctx.database.db.selectFrom("outbound_mail").selectAll().where("id", "=", mailId).executeTakeFirst();
    if (!mail) continue;
    await markSent(ctx, lines, mail.status === "sent" || mail.status === "captured" ? mail : await ctx.mailer.deliver(mail), runId);
    finished.add(mailId);
  }
  return rows.filter((row) => !(row.outbound_mail_id && finished.has(row.outbound_mail_id)));
}

async function composeDigest(ctx: ServerContext, firm: FirmRecord, rows: NotificationRow[], summaries: Map<string, NoticeSummary>) {
  let budget = firm.max_email_attachment_size;
  const takenNames = new Set<string>();
  const attachments: { filename: string; content: Buffer; contentType: string }[] = [];
  const sections: MailSection[] = [];
  for (const row of rows) {
    const summary = summaries.get(row.inbox_item_id);
    const documents = await loadDeliveryDocuments(ctx, row.inbox_item_id);
    const delivery = await buildDelivery(ctx, { firm, documents, method: row.delivery_method, timekeeperId: row.timekeeper_id, budget, takenNames });
    budget -= delivery.bytes;
    attachments.push(...delivery.attachments);
    const urlOf = new Map(delivery.links.map((l) => [l.documentId, l.url]));
    sections.push({
      title: summary ? summaryTitle(summary) : row.inbox_item_id,
      lines: [
        ...(summary?.docketText ? [{ text: summary.docketText }] : []),
        ...documents
          .filter((d) => urlOf.has(d.id) || delivery.attachedIds.has(d.id))
          .map((d) => ({
            text: d.name || message("mail:digestDocument", { number: d.number }),
            href: urlOf.get(d.id),
            note: delivery.attachedIds.has(d.id) ? message("mail:digestAttached") : undefined,
          })),
      ],
    });
  }
  const { html, text } = layoutMail({
    heading: message("mail:digestHeading", { firm: firm.name }),
    intro: message("mail:digestIntro", { count: rows.length }),
    sections,
    footer: message("mail:digestFooter", { firm: firm.name }),
  });
  return { subject: message("mail:digestSubject", { count: rows.length }), html, text, attachments };
}
