import { SignJWT, errors, jwtVerify } from "jose";
import type { ServerContext } from "../context";
import { newId, newSecretToken, sha256 } from "../lib/ids";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema";

export interface AccessClaims {
  userId: string;
  firmId: number;
  tokenVersion: number;
  /** The single sign-on session the sign-in started (decision 099), if it was one. */
  ssoSessionId?: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const ISSUER = "ecfx";

function key(ctx: ServerContext): Uint8Array {
  return new TextEncoder().encode(ctx.secrets.tokenSigningKey);
}

export async function signAccessToken(ctx: ServerContext, claims: AccessClaims): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ firm: claims.firmId, ver: claims.tokenVersion, ...(claims.ssoSessionId ? { sid: claims.ssoSessionId } : {}) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + ctx.config.ECFX_ACCESS_TOKEN_TTL)
    .sign(key(ctx));
}

export async function verifyAccessToken(ctx: ServerContext, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(ctx), {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: new Date(ctx.clock.now()),
    });
    if (typeof payload.sub !== "string" || typeof payload.firm !== "number" || typeof payload.ver !== "number") return null;
    const sid = typeof payload.sid === "string" ? { ssoSessionId: payload.sid } : {};
    return { userId: payload.sub, firmId: payload.firm, tokenVersion: payload.ver, ...sid };
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

/**
 * Issues an access token and a refresh token; a new sign-in starts a new refresh family. Both
 * name the single sign-on session the sign-in started, when it was one.
 */
export async function issueTokens(
  ctx: ServerContext,
  user: { id: string; firm_id: number; token_version: number },
  familyId: string = newId(),
  ssoSessionId: string | null = null,
): Promise<TokenPair> {
  const { token, hash } = newSecretToken();
  const now = ctx.clock.now();
  await ctx.database.db
    .insertInto("refresh_token")
    .values({
      token_hash: hash,
      family_id: familyId,
      user_id: user.id,
      firm_id: user.firm_id,
      issued_at: now,
      expires_at: now + ctx.config.ECFX_REFRESH_TOKEN_TTL * 1000,
      rotated_at: null,
      revoked_at: null,
      sso_session_id: ssoSessionId,
    })
    .execute();
  const sso = ssoSessionId ? { ssoSessionId } : {};
  return {
    access_token: await signAccessToken(ctx, { userId: user.id, firmId: user.firm_id, tokenVersion: user.token_version, ...sso }),
    refresh_token: token,
    expires_in: ctx.config.ECFX_ACCESS_TOKEN_TTL,
  };
}

export type RefreshOutcome = { ok: true; tokens: TokenPair } | { ok: false; reason: "invalid" | "expired" | "reused" };

/**
 * Rotates a refresh token. A token used a second time means it leaked: the whole family is
 * revoked. Within a short leeway after rotation (parallel requests of one browser) a reuse
 * gets a fresh pair of the same family instead.
 */
export async function rotateRefreshToken(ctx: ServerContext, presented: string): Promise<RefreshOutcome> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const row = await db.selectFrom("refresh_token").selectAll().where("token_hash", "=", sha256(presented)).executeTakeFirst();
  if (!row || row.revoked_at !== null) return { ok: false, reason: "invalid" };
  if (row.expires_at <= now) return { ok: false, reason: "expired" };
  // The identity provider's logout ended the single sign-on session: its tokens end with it.
  if (row.sso_session_id) {
    const sso = await db.selectFrom("sso_session").select("ended_at").where("id", "=", row.sso_session_id).executeTakeFirst();
    if (!sso || sso.ended_at !== null) return { ok: false, reason: "invalid" };
  }

  const user = await db.selectFrom("app_user").select(["id", "firm_id", "token_version"]).where("id", "=", row.user_id).executeTakeFirst();
  if (!user) return { ok: false, reason: "invalid" };

  if (row.rotated_at !== null) {
    if (now - row.rotated_at <= ctx.config.ECFX_REFRESH_REUSE_LEEWAY * 1000) {
      return { ok: true, tokens: await issueTokens(ctx, user, row.family_id, row.sso_session_id) };
    }
    await revokeFamily(ctx, row.family_id);
    return { ok: false, reason: "reused" };
  }
  const claimed = await db
    .updateTable("refresh_token")
    .set({ rotated_at: now })
    .where("token_hash", "=", row.token_hash)
    .where("rotated_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return rotateRefreshToken(ctx, presented);
  return { ok: true, tokens: await issueTokens(ctx, user, row.family_id, row.sso_session_id) };
}

export async function revokeFamily(ctx: ServerContext, familyId: string): Promise<void> {
  await ctx.database.db
    .updateTable("refresh_token")
    .set({ revoked_at: ctx.clock.now() })
    .where("family_id", "=", familyId)
    .where("revoked_at", "is", null)
    .execute();
}

/** The user a refresh token was issued to, and its single sign-on session, whether or not it is still valid. */
export async function sessionOfRefreshToken(ctx: ServerContext, presented: string): Promise<{ userId: string; ssoSessionId?: string } | undefined> {
  const row = await ctx.database.db
    .selectFrom("refresh_token")
    .select(["user_id", "sso_session_id"])
    .where("token_hash", "=", sha256(presented))
    .executeTakeFirst();
  return row ? { userId: row.user_id, ...(row.sso_session_id ? { ssoSessionId: row.sso_session_id } : {}) } : undefined;
}

/**
 * Signs the user out everywhere: old access tokens stop working and refresh families end. `db`
 * is the transaction of the change that calls for it, when there is one.
 */
export async function revokeAllSessions(ctx: ServerContext, userId: string, db: Kysely<DB> = ctx.database.db): Promise<void> {
  await db
    .updateTable("app_user")
    .set((eb) => ({ token_version: eb("token_version", "+", 1), updated_at: ctx.clock.now() }))
    .where("id", "=", userId)
    .execute();
  await db.updateTable("refresh_token").set({ revoked_at: ctx.clock.now() }).where("user_id", "=", userId).where("revoked_at", "is", null).execute();
}
