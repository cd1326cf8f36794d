import { DmsTargetError } from "../dms-target";
import type { StoredToken, VendorContext } from "../vendor-target";
import { type CallOptions, boundedJson, guardedFetch, refusal, vendorReason, boundedBytes } from "../guarded-call";

// Sign-in to SharePoint Server at the credential's fed_auth_endpoint: the federation service
// (AD FS 2016 or later, /adfs/oauth2/token) issues, for the app's client credentials, either an
// access token (JSON access_token, sent as "Authorization: Bearer") or the FedAuth session
// cookie SharePoint's trusted identity provider sets (sent as "Cookie: FedAuth=…"). The grant is
// OAuth 2.0 client credentials with resource = the relying party SharePoint is known by in the
// federation service (tenant_id; the web application's address when empty). Kept in the token
// store, renewed a minute before it expires.

const TOKEN_MARGIN_MS = 60_000;
/** A FedAuth cookie that says nothing of its lifetime is renewed after this long. */
const DEFAULT_LIFETIME_MS = 10 * 60_000;

export interface FedAuthSettings {
  client_id: string;
  client_secret: string;
  tenant_id: string;
  fed_auth_endpoint: string;
}

/** The header that carries a stored token. */
export function authHeaders(token: StoredToken): Record<string, string> {
  return token.extra?.scheme === "fedauth" ? { cookie: `FedAuth=${token.accessToken}` } : { authorization: `Bearer ${token.accessToken}` };
}

/** The FedAuth cookie among Set-Cookie headers, with its lifetime when it states one. */
function fedAuthCookie(setCookies: string[], now: number): { value: string; expiresAt: number } | null {
  for (const header of setCookies) {
    const match = /^FedAuth=([^;]*)/i.exec(header.trim());
    if (!match?.[1]) continue;
    const maxAge = /;\s*max-age=(\d+)/i.exec(header)?.[1];
    const expires = /;\s*expires=([^;]+)/i.exec(header)?.[1];
    const expiresAt = maxAge ? now + Number(maxAge) * 1000 : expires && !Number.isNaN(Date.parse(expires)) ? Date.parse(expires) : now + DEFAULT_LIFETIME_MS;
    return { value: match[1], expiresAt };
  }
  return null;
}

export class FedAuthTokens {
  constructor(
    private readonly settings: FedAuthSettings,
    private readonly resource: string,
    private readonly ctx: VendorContext,
    private readonly call: CallOptions,
  ) {}

  async current(): Promise<StoredToken> {
    const stored = await this.ctx.tokens.read();
    if (stored && stored.expiresAt - TOKEN_MARGIN_MS > this.ctx.now()) return stored;
    return this.renew();
  }

  async renew(): Promise<StoredToken> {
    await this.ctx.tokens.clear();
    let endpoint: URL;
    try {
      endpoint = new URL(this.settings.fed_auth_endpoint);
    } catch (error) {
      throw new DmsTargetError(this.call.kind, `Token generation failed: "${this.settings.fed_auth_endpoint}" is not an address`, false, { cause: error });
    }
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.settings.client_id,
      client_secret: this.settings.client_secret,
      resource: this.resource,
    });
    const response = await guardedFetch(this.call, endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
    });
    if (response.status === 429 || response.status >= 500)
      throw await refusal(response, this.call.kind, "The federation service", "the sign-in", this.ctx.now());
    if (!response.ok) {
      const reason = vendorReason((await boundedBytes(response, this.call.kind, 64 * 1024)).toString("utf8"));
      throw new DmsTargetError(this.call.kind, `Token generation failed: ${reason || `HTTP ${response.status}`}`, false);
    }
    const cookie = fedAuthCookie(response.headers.getSetCookie(), this.ctx.now());
    const answer = String(response.headers.get("content-type") ?? "").includes("json")
      ? await boundedJson<{ access_token?: unknown; expires_in?: unknown }>(response, this.call.kind)
      : {};
    if (!String(response.headers.get("content-type") ?? "").includes("json")) await response.body?.cancel();
    let token: StoredToken;
    if (typeof answer.access_token === "string" && answer.access_token) {
      const seconds = typeof answer.expires_in === "number" ? answer.expires_in : Number(answer.expires_in ?? 0);
      token = {
        accessToken: answer.access_token,
        expiresAt: this.ctx.now() + (seconds > 0 ? seconds * 1000 : DEFAULT_LIFETIME_MS),
        extra: { scheme: "bearer" },
      };
    } else if (cookie) {
      token = { accessToken: cookie.value, expiresAt: cookie.expiresAt, extra: { scheme: "fedauth" } };
    } else {
      throw new DmsTargetError(this.call.kind, "Token generation failed: the federation service answered with neither a token nor a FedAuth cookie", false);
    }
    await this.ctx.tokens.write(token);
    return token;
  }
}
