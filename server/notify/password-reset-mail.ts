import type { ServerContext } from "../context";
import type { UserRow } from "../db/schema";
import { withFirmWords } from "../db/firm-words";
import { findFirm } from "../firm/firm-repository";
import { escapeHtml } from "../lib/html";
import { newSecretToken } from "../lib/ids";
import { message } from "../lib/messages";

export function sendPasswordResetMail(ctx: ServerContext, user: UserRow, token: string, expiresAt: number): Promise<void> {
  return withFirmWords(ctx.database, user.firm_id, () => composeAndSendReset(ctx, user, token, expiresAt));
}

async function composeAndSendReset(ctx: ServerContext, user: UserRow, token: string, expiresAt: number): Promise<void> {
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

const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

/** A new user's first password is chosen through a reset link that lasts three days. */
export async function sendInvitationMail(ctx: ServerContext, userId: string): Promise<void> {
  const user = await ctx.database.db.selectFrom("app_user").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  return withFirmWords(ctx.database, user.firm_id, () => composeAndSendInvitation(ctx, user));
}

async function composeAndSendInvitation(ctx: ServerContext, user: UserRow): Promise<void> {
  const firm = await findFirm(ctx.database, user.firm_id);
  const { token, hash } = newSecretToken();
  const now = ctx.clock.now();
  await ctx.database.db
    .insertInto("password_reset")
    .values({ token_hash: hash, user_id: user.id, firm_id: user.firm_id, expires_at: now + INVITATION_TTL_MS, used_at: null, created_at: now })
    .execute();
  const link = `${ctx.config.publicUrl}/password-reset?token=${encodeURIComponent(token)}`;
  const lines = {
    greeting: message("mail:resetGreeting", { name: user.display_name || user.full_name }),
    body: message("mail:inviteBody", { firm: firm?.name ?? "" }),
    action: message("mail:inviteAction"),
    footer: message("mail:resetFooter", { expires: new Date(now + INVITATION_TTL_MS).toUTCString() }),
  };
  await ctx.mailer.send({
    firmId: user.firm_id,
    purpose: "invitation",
    to: [user.email],
    replyTo: firm?.reply_to_email || undefined,
    subject: message("mail:inviteSubject", { firm: firm?.name ?? "" }),
    text: `${lines.greeting}\n\n${lines.body}\n\n${lines.action}: ${link}\n\n${lines.footer}\n`,
    html:
      `<p>${escapeHtml(lines.greeting)}</p><p>${escapeHtml(lines.body)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(lines.action)}</a></p><p>${escapeHtml(lines.footer)}</p>`,
  });
}
