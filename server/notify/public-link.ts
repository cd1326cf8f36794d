import { createHmac } from "node:crypto";
import { SignJWT, errors, jwtVerify } from "jose";
import type { ServerContext } from "../context";

// Signed, expiring links to one document for firms with public document access: whoever holds
// the link may open the document without signing in, until it expires, unless a wall now keeps
// the recipient out. The key is derived from the token signing key for this one purpose, so a
// sign-in token can never pass for a document link or the other way round.

export const PUBLIC_LINK_TTL_SECONDS = 7 * 24 * 3600;
const ISSUER = "ecfx";
const AUDIENCE = "public-document";

export interface PublicLinkClaims {
  documentId: string;
  firmId: number;
  /** The timekeeper the link was sent to; null for firm-level recipients. */
  timekeeperId: string | null;
}

export type PublicLinkCheck = { ok: true; claims: PublicLinkClaims } | { ok: false; problem: "expired" | "invalid" };

function key(ctx: Pick<ServerContext, "secrets">): Uint8Array {
  return createHmac("sha256", ctx.secrets.tokenSigningKey).update("ecfx public document link").digest();
}

export async function signPublicLink(ctx: Pick<ServerContext, "secrets" | "clock">, claims: PublicLinkClaims): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ firm: claims.firmId, tk: claims.timekeeperId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.documentId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + PUBLIC_LINK_TTL_SECONDS)
    .sign(key(ctx));
}

export async function verifyPublicLink(ctx: Pick<ServerContext, "secrets" | "clock">, token: string): Promise<PublicLinkCheck> {
  try {
    const { payload } = await jwtVerify(token, key(ctx), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: new Date(ctx.clock.now()),
    });
    const tk = payload.tk;
    if (typeof payload.sub !== "string" || typeof payload.firm !== "number" || (tk !== null && typeof tk !== "string"))
      return { ok: false, problem: "invalid" };
    return { ok: true, claims: { documentId: payload.sub, firmId: payload.firm, timekeeperId: tk } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, problem: "expired" };
    if (error instanceof errors.JOSEError) return { ok: false, problem: "invalid" };
    throw error;
  }
}
