import type { ServerContext } from "../context";
import type { FirmRecord } from "../../app/common/firm-schema";
import { findFirm } from "../firm/firm-repository";
import { escapeHtml } from "../lib/html";
import { message } from "../lib/messages";

/** A notice that waits for someone at the firm, and what to tell them. */
interface FirmReport {
  purpose: string;
  /** The firm's list of addresses this report goes to. */
  recipients: (firm: FirmRecord) => readonly string[];
  subject: string;
  body: string;
}

/** Mails one of the firm's reports about an inbox item to its recipients, with a link to the item's card. */
async function sendFirmReport(ctx: ServerContext, item: { id: string; firm_id: number; subject: string }, report: FirmReport): Promise<void> {
  const firm = await findFirm(ctx.database, item.firm_id);
  const to = firm ? report.recipients(firm) : [];
  if (!firm || to.length === 0) return;
  const link = `${ctx.config.publicUrl}/inbox-items/id/${item.id}`;
  await ctx.mailer.send({
    firmId: firm.id,
    purpose: report.purpose,
    to: [...to],
    replyTo: firm.reply_to_email || undefined,
    noticeIds: [item.id],
    subject: report.subject,
    inboxItemId: item.id,
    text: `${report.body}\n\n${item.subject}\n${link}\n`,
    html: `<p>${escapeHtml(report.body)}</p><p>${escapeHtml(item.subject)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  });
}

/** Tells the firm's case-not-found report recipients that a notice waits for a case. */
export function reportCaseNotFound(
  ctx: ServerContext,
  item: { id: string; firm_id: number; subject: string },
  docketNumber: string,
  courtId: string | null,
  reason: string,
): Promise<void> {
  return sendFirmReport(ctx, item, {
    purpose: "case-not-found",
    recipients: (firm) => firm.case_not_found_report_emails,
    subject: message("mail:caseNotFoundSubject", { docket: docketNumber }),
    body: message("mail:caseNotFoundBody", { docket: docketNumber, court: courtId ?? "?", reason }),
  });
}

/** Tells the firm's manual-process recipients that a notice is held for a person to process. */
export function reportManualProcessing(ctx: ServerContext, item: { id: string; firm_id: number; subject: string }): Promise<void> {
  return sendFirmReport(ctx, item, {
    purpose: "manual-process",
    recipients: (firm) => firm.manual_process_emails,
    subject: message("mail:manualProcessSubject", { subject: item.subject }),
    body: message("mail:manualProcessBody"),
  });
}

/** Tells the firm's error recipients that mail from a court or a provider waits for a person (decision 092). */
export function reportCourtMail(ctx: ServerContext, item: { id: string; firm_id: number; subject: string }, reason: string): Promise<void> {
  return sendFirmReport(ctx, item, {
    purpose: "court-mail",
    recipients: (firm) => firm.error_notification_emails,
    subject: message("mail:courtMailSubject", { subject: item.subject }),
    body: message("mail:courtMailBody", { reason }),
  });
}
