import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { issueTokens, revokeAllSessions, type TokenPair } from "../auth/tokens";
import { keepAnAdministrator } from "../resources/user-guard";
import type { FirmSso } from "./firm-sso";

// What an identity provider vouched for becomes a session of an existing user of the firm
// (decision 099): matched by e-mail within that firm only, never created, and given a role only
// through the firm's own mapping of the provider's groups.

export interface VouchedIdentity {
  method: "saml" | "oidc";
  issuer: string;
  email: string;
  subject: string;
  subjectFormat: string;
  sessionIndex: string;
  groups: string[];
  /** OpenID Connect: the ID token, named to the issuer when the session is signed out. */
  idToken?: string;
}

export interface SsoSignedIn {
  user: { id: string; email: string; fullName: string; securityRoleId: string; firmId: number };
  tokens: TokenPair;
}

export async function signInVouched(ctx: ServerContext, sso: FirmSso, who: VouchedIdentity): Promise<SsoSignedIn> {
  const db = ctx.database.db;
  const user = await db.selectFrom("app_user").selectAll().where("firm_id", "=", sso.firmId).where("email", "=", who.email).executeTakeFirst();
  // A user the identity provider deactivated by provisioning (SCIM) is refused as one it never had.
  const deactivated = user && (await db.selectFrom("scim_user").select("user_id").where("user_id", "=", user.id).where("active", "=", 0).executeTakeFirst());
  if (!user || deactivated) throw new HttpError(401, message("errors:sso.refused", { reason: message("errors:sso.reason.unknownUser") }));
  const now = ctx.clock.now();
  const mapped = who.groups.map((g) => sso.groupRoles[g]).find((roleId): roleId is string => Boolean(roleId));
  let roleId = user.security_role_id;
  if (mapped && mapped !== user.security_role_id) {
    const role = await db.selectFrom("security_role").select("id").where("id", "=", mapped).where("firm_id", "=", sso.firmId).executeTakeFirst();
    // The firm keeps an administrator: a mapping that would take the role of its last one leaves it.
    const changed =
      role &&
      (await db.transaction().execute(async (trx) => {
        try {
          await keepAnAdministrator(trx, ctx, sso.firmId, { userIds: [user.id], roleId: role.id });
        } catch (error) {
          if (error instanceof HttpError) return false;
          throw error;
        }
        await trx.updateTable("app_user").set({ security_role_id: role.id, updated_at: now }).where("id", "=", user.id).execute();
        return true;
      }));
    if (changed) {
      // A new role ends the sessions held under the old one.
      await revokeAllSessions(ctx, user.id);
      roleId = role.id;
    }
  }
  const fresh = await db.selectFrom("app_user").select(["id", "firm_id", "token_version"]).where("id", "=", user.id).executeTakeFirstOrThrow();
  const sessionId = newId();
  await db
    .insertInto("sso_session")
    .values({
      id: sessionId,
      firm_id: sso.firmId,
      user_id: user.id,
      method: who.method,
      issuer: who.issuer,
      subject: who.subject,
      subject_format: who.subjectFormat,
      session_index: who.sessionIndex,
      id_token: who.idToken || null,
      created_at: now,
      ended_at: null,
    })
    .execute();
  const tokens = await issueTokens(ctx, fresh, newId(), sessionId);
  return { user: { id: user.id, email: user.email, fullName: user.full_name, securityRoleId: roleId, firmId: user.firm_id }, tokens };
}

/** Ends the firm's single sign-on sessions of a subject (the identity provider's logout) and every session of their users. */
export async function endSsoSessions(ctx: ServerContext, firmId: number, subject: string, sessionIndex?: string): Promise<number> {
  const db = ctx.database.db;
  let query = db.selectFrom("sso_session").select(["id", "user_id"]).where("firm_id", "=", firmId).where("subject", "=", subject).where("ended_at", "is", null);
  if (sessionIndex) query = query.where("session_index", "=", sessionIndex);
  const sessions = await query.execute();
  const now = ctx.clock.now();
  for (const s of sessions) await db.updateTable("sso_session").set({ ended_at: now }).where("id", "=", s.id).execute();
  for (const userId of new Set(sessions.map((s) => s.user_id))) await revokeAllSessions(ctx, userId);
  return sessions.length;
}
