import { createHmac } from "node:crypto";
import { SignJWT, errors, jwtVerify } from "jose";
import type { ServerContext } from "../context";

// The `state` ECFX hands a vendor's consent page (decision 057): signed with a key derived from
// the token signing key for this one purpose, expiring after a few minutes, and naming the firm,
// the credential and the person who asked. The callback completes a connection only for that
// person, in that firm, on that credential: a state copied to another browser or firm is refused.

export const AUTHORIZATION_STATE_TTL_SECONDS = 10 * 60;
const ISSUER = "ecfx";
const AUDIENCE = "vendor-authorization";

export interface AuthorizationClaims {
  firmId: number;
  userId: string;
  /** The credential's table, e.g. clio_credential. */
  kind: string;
  credentialId: string;
}

export type AuthorizationCheck = { ok: true; claims: AuthorizationClaims } | { ok: false; problem: "expired" | "invalid" };

const key = (ctx: Pick<ServerContext, "secrets">) => createHmac("sha256", ctx.secrets.tokenSigningKey).update("ecfx vendor authorization state").digest();

export async function signAuthorizationState(ctx: Pick<ServerContext, "secrets" | "clock">, claims: AuthorizationClaims): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ firm: claims.firmId, kind: claims.kind, cred: claims.credentialId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + AUTHORIZATION_STATE_TTL_SECONDS)
    .sign(key(ctx));
}

export async function verifyAuthorizationState(ctx: Pick<ServerContext, "secrets" | "clock">, state: string): Promise<AuthorizationCheck> {
  try {
    const { payload } = await jwtVerify(state, key(ctx), { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"], currentDate: new Date(ctx.clock.now()) });
    if (typeof payload.sub !== "string" || typeof payload.firm !== "number" || typeof payload.kind !== "string" || typeof payload.cred !== "string")
      return { ok: false, problem: "invalid" };
    return { ok: true, claims: { firmId: payload.firm, userId: payload.sub, kind: payload.kind, credentialId: payload.cred } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, problem: "expired" };
    if (error instanceof errors.JOSEError) return { ok: false, problem: "invalid" };
    throw error;
  }
}
