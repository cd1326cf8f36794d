import type { ServerContext } from "../context";
import { findFirm } from "../firm/firm-repository";
import { escapeHtml } from "../lib/html";
import { message } from "../lib/messages";

/** Tells the firm's case-not-found report recipients that a notice waits for a case. */
export async function reportCaseNotFound(
  ctx: ServerContext,
  item: { id: string; firm_id: number; subject: string },
  docketNumber: string,
  courtId: string | null,
  reason: string,
): Promise<void> {
  const firm = await findFirm(ctx.database, item.firm_id);
  if (!firm || firm.case_not_found_report_emails.length === 0) return;
  const link = `${ctx.config.publicUrl}/inbox-items/id/${item.id}`;
  const body = message("mail:caseNotFoundBody", { docket: docketNumber, court: courtId ?? "?", reason });
  await ctx.mailer.send({
    firmId: firm.id,
    purpose: "case-not-found",
    to: firm.case_not_found_report_emails,
    replyTo: firm.reply_to_email || undefined,
    subject: message("mail:caseNotFoundSubject", { docket: docketNumber }),
    text: `${body}\n\n${item.subject}\n${link}\n`,
    html: `<p>${escapeHtml(body)}</p><p>${escapeHtml(item.subject)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  });
}
