import type { ServerContext } from "../context";
import type { UserRow } from "../db/schema";
import { findFirm } from "../firm/firm-repository";
import { escapeHtml } from "../lib/html";
import { message } from "../lib/messages";

export async function sendPasswordResetMail(ctx: ServerContext, user: UserRow, token: string, expiresAt: number): Promise<void> {
  const firm = await findFirm(ctx.database, user.firm_id);
  const link = `${ctx.config.publicUrl}/password-reset?token=${encodeURIComponent(token)}`;
  const expires = new Date(expiresAt).toUTCString();
  const lines = {
    greeting: message("mail:resetGreeting", { name: user.display_name || user.full_name }),
    body: message("mail:resetBody", { firm: firm?.name ?? "" }),
    action: message("mail:resetAction"),
    footer: message("mail:resetFooter", { expires }),
  };
  await ctx.mailer.send({
    firmId: user.firm_id,
    purpose: "password-reset",
    to: [user.email],
    replyTo: firm?.reply_to_email || undefined,
    subject: message("mail:resetSubject"),
    text: `${lines.greeting}\n\n${lines.body}\n\n${lines.action}: ${link}\n\n${lines.footer}\n`,
    html:
      `<p>${escapeHtml(lines.greeting)}</p><p>${escapeHtml(lines.body)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(lines.action)}</a></p><p>${escapeHtml(lines.footer)}</p>`,
  });
}
