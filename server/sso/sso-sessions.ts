import type { ServerContext } from "../context";
import { findFirmSso } from "./firm-sso";
import { oidcLogoutUrl } from "./oidc";
import { logoutRequestUrl } from "./saml";

/** Whether the firm signs in through its identity provider and this user is not its break-glass administrator. */
export async function passwordRefused(ctx: ServerContext, user: { id: string; firm_id: number }): Promise<boolean> {
  const firm = await ctx.database.db.selectFrom("firm").select("signon_type").where("id", "=", user.firm_id).executeTakeFirst();
  if (!firm || firm.signon_type === "local") return false;
  const sso = await findFirmSso(ctx, user.firm_id);
  return sso?.breakGlassUserId !== user.id;
}

/** The single sign-on session as `/auth/me` tells it; undefined once ended. */
export async function ssoSessionOf(ctx: ServerContext, id: string) {
  const row = await ctx.database.db.selectFrom("sso_session").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || row.ended_at !== null) return undefined;
  return {
    method: row.method,
    issuer: row.issuer,
    subject: row.subject,
    subjectFormat: row.subject_format,
    sessionIndex: row.session_index,
    signedInAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/**
 * Ends a single sign-on session on this side and answers where the browser goes to end it at the
 * identity provider too (SAML single logout, OpenID Connect RP-initiated logout), or null when the
 * provider takes no logout.
 */
export async function ssoLogoutUrl(ctx: ServerContext, id: string): Promise<string | null> {
  const db = ctx.database.db;
  const row = await db.selectFrom("sso_session").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || row.ended_at !== null) return null;
  await db.updateTable("sso_session").set({ ended_at: ctx.clock.now() }).where("id", "=", id).execute();
  if (row.method === "oidc") return oidcLogoutUrl(ctx, row.firm_id, row.id_token ?? "");
  if (row.method !== "saml") return null;
  return logoutRequestUrl(ctx, row.firm_id, {
    issuer: row.issuer,
    nameID: row.subject,
    nameIDFormat: row.subject_format,
    ...(row.session_index ? { sessionIndex: row.session_index } : {}),
  });
}
