import * as client from "openid-client";
import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";
import { identityProviderPurpose, ssoGuard } from "./sso-guard";
import { type FirmSso, findFirmSso, spBaseUrl } from "./firm-sso";
import type { VouchedIdentity } from "./sso-sign-in";

// OpenID Connect sign-on (decision 100) with openid-client: the issuer discovered from its
// address, authorization code with PKCE, state and nonce, the ID token checked by the library
// against the issuer's keys (fetched again when it signs with a key it did not publish before:
// key rotation). Every call to the issuer goes through the outbound guard.

const REQUEST_TTL_MS = 10 * 60 * 1000;

const refused = (reason: string) => new HttpError(401, message("errors:sso.refused", { reason: message(`errors:sso.reason.${reason}`) }));

/** The guard's fetch as openid-client calls it: only the issuer's own host. */
function guardedFetch(ctx: ServerContext, issuer: URL): client.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const response = await ssoGuard(ctx.config).fetch(target, identityProviderPurpose(issuer), {
      method: options.method,
      headers: options.headers,
      body: options.body as string | undefined,
      signal: options.signal ?? AbortSignal.timeout(15_000),
    });
    return response as unknown as Response;
  };
}

async function configurationOf(ctx: ServerContext, sso: FirmSso): Promise<client.Configuration> {
  if (!sso.oidcIssuer || !sso.oidcClientId) throw new HttpError(404, message("errors:sso.notConfigured"));
  const issuer = new URL(sso.oidcIssuer);
  const guard = ssoGuard(ctx.config);
  // Plain http only for an issuer the operator named (a local one of tests and the demo).
  const execute = guard.isOperatorOrigin(issuer) ? [client.allowInsecureRequests] : [];
  try {
    return await client.discovery(issuer, sso.oidcClientId, sso.oidcClientSecret || undefined, undefined, {
      [client.customFetch]: guardedFetch(ctx, issuer),
      execute,
    });
  } catch {
    throw new HttpError(502, message("errors:sso.discovery"));
  }
}

const redirectUri = async (ctx: ServerContext, firmId: number) => `${await spBaseUrl(ctx, firmId)}/auth/oidc/callback`;

/** Where the issuer sends the browser back after signing it out (registered with the issuer as a post-logout redirect URI). */
export const postLogoutUri = (base: string) => `${base}/auth/oidc/logout`;

/** Where the browser goes to sign in; the request's verifier, nonce and destination wait in the database under its state. */
export async function oidcSignInUrl(ctx: ServerContext, firmId: number, relayState: string): Promise<string> {
  const sso = await findFirmSso(ctx, firmId);
  if (!sso) throw new HttpError(404, message("errors:sso.notConfigured"));
  const config = await configurationOf(ctx, sso);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const now = ctx.clock.now();
  await ctx.database.db.deleteFrom("sso_request").where("expires_at", "<", now).execute();
  await ctx.database.db
    .insertInto("sso_request")
    .values({ id: `oidc:${state}`, firm_id: firmId, data: JSON.stringify({ verifier, nonce, relayState }), expires_at: now + REQUEST_TTL_MS })
    .execute();
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: await redirectUri(ctx, firmId),
      scope: "openid email profile",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    })
    .toString();
}

export interface OidcSignIn {
  sso: FirmSso;
  who: VouchedIdentity;
  relayState: string;
}

/** Takes the issuer's answer at the callback (its query string): one use per request, for this firm only. */
export async function acceptOidcCallback(ctx: ServerContext, firmId: number, query: string): Promise<OidcSignIn> {
  const params = new URLSearchParams(query);
  const state = params.get("state") ?? "";
  const db = ctx.database.db;
  const request = await db
    .selectFrom("sso_request")
    .select("data")
    .where("id", "=", `oidc:${state}`)
    .where("firm_id", "=", firmId)
    .where("expires_at", ">", ctx.clock.now())
    .executeTakeFirst();
  if (!state || !request) throw refused("inResponseTo");
  const claimed = await db.deleteFrom("sso_request").where("id", "=", `oidc:${state}`).where("firm_id", "=", firmId).executeTakeFirst();
  if (Number(claimed.numDeletedRows) !== 1) throw refused("replayed");
  const { verifier, nonce, relayState } = JSON.parse(request.data) as { verifier: string; nonce: string; relayState: string };
  const sso = (await findFirmSso(ctx, firmId))!;
  const config = await configurationOf(ctx, sso);
  const current = new URL(await redirectUri(ctx, firmId));
  current.search = params.toString();
  let claims: (client.IDToken & Record<string, unknown>) | undefined;
  let idToken = "";
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    idToken = tokens.id_token ?? "";
    // Many issuers keep the e-mail address out of the ID token: it is then asked of userinfo, for this subject only.
    if (claims && typeof claims.email !== "string")
      claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), iss: claims.iss, sub: claims.sub };
  } catch (error) {
    if (error instanceof client.AuthorizationResponseError) throw refused("idpError");
    throw refused(/expired|exp\b|iat/i.test(error instanceof Error ? error.message : "") ? "expired" : "signature");
  }
  const email = typeof claims?.email === "string" ? claims.email.trim().toLowerCase() : "";
  // An address the issuer says it has not verified vouches for nobody.
  if (!claims || !email || claims.email_verified === false) throw refused("subject");
  const groupsClaim = sso.groupAttribute ? claims[sso.groupAttribute] : undefined;
  const groups = Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === "string") : [];
  return {
    sso,
    relayState,
    who: {
      method: "oidc",
      issuer: claims.iss,
      email,
      subject: claims.sub,
      subjectFormat: "",
      sessionIndex: typeof claims.sid === "string" ? claims.sid : "",
      groups,
      idToken,
    },
  };
}

/**
 * Where the browser goes to end the session at the issuer too (RP-initiated logout, decision
 * 102): its end_session_endpoint with the session's ID token as the hint and the firm's
 * post-logout address. Null when the issuer publishes no such endpoint or cannot be reached:
 * the session here has ended anyway.
 */
export async function oidcLogoutUrl(ctx: ServerContext, firmId: number, idToken: string): Promise<string | null> {
  const sso = await findFirmSso(ctx, firmId);
  if (!sso?.oidcIssuer || !sso.oidcClientId) return null;
  let config: client.Configuration;
  try {
    config = await configurationOf(ctx, sso);
  } catch {
    return null;
  }
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client
    .buildEndSessionUrl(config, {
      post_logout_redirect_uri: postLogoutUri(await spBaseUrl(ctx, firmId)),
      ...(idToken ? { id_token_hint: idToken } : {}),
    })
    .toString();
}
