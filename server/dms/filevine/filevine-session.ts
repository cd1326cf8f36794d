import { createHash } from "node:crypto";
import type { Response } from "undici";
import type { z } from "zod";
import { fileVineAddress } from "../../../app/common/filevine";
import { DmsTargetError } from "../dms-target";
import type { TokenSource } from "../vendor-http";
import type { StoredToken, VendorContext } from "../vendor-target";
import { type FileVineHosts, fileVineHosts } from "./filevine-hosts";
import { authorized, FILEVINE_KIND, type FileVineRequest, parsed, readJson, refusal, send, vendorReason, withQuery } from "./filevine-http";
import { keySessionAnswer, tokenAnswer, userOrgs } from "./filevine-schemas";

// Signing in to FileVine and calling its API as the credential's user, one of two ways:
// - a personal access token (PAT) with the API app's client id and secret: the identity server
//   exchanges them for a bearer token (grant_type personal_access_token), and the gateway's
//   GetUserOrgsWithToken names the user and org every call repeats (x-fv-userid, x-fv-orgid);
// - an API key and secret (FileVine's older API): POST /session with the key, a timestamp and
//   the MD5 of "key/timestamp/secret" answers the access token, the session id (x-fv-sessionid)
//   and the user and org ids.
// The token lives in the credential's sealed token store with the ids, so every process reuses it
// until shortly before it expires.

export interface FileVineSettings {
  subdomain: string;
  personalAccessToken: string;
  clientId: string;
  clientSecret: string;
  api_key: string;
  api_secret: string;
  hashtags: string;
  billingItem: string;
  /** Milliseconds to wait after creating a folder, before filing into it; 0 when unset. */
  folder_creation_sync_delay: number;
}

/** The identity server's scopes for the gateway's v2 API (FileVine's published PAT scope string). */
export const PAT_SCOPES = "fv.api.gateway.access tenant filevine.v2.api.* openid email fv.auth.tenant.read";
/** A token is renewed this long before FileVine says it expires. */
const RENEW_MARGIN_MS = 60_000;
/** The older API's sessions do not say how long they last: they are renewed after this long. */
const LEGACY_SESSION_MS = 10 * 60_000;
const TOKEN_FAILED = "Token generation failed";

type Way = "pat" | "key";

const filled = (value: string | undefined) => typeof value === "string" && value.trim() !== "";

/** Which way the credential signs in: a complete PAT first, then a complete key and secret. */
export function signInWay(settings: FileVineSettings): Way | null {
  if (filled(settings.personalAccessToken) && filled(settings.clientId) && filled(settings.clientSecret)) return "pat";
  if (filled(settings.api_key) && filled(settings.api_secret)) return "key";
  return null;
}

/** What the kept token was issued for: a token of another PAT, key or way is not reused. */
function fingerprint(settings: FileVineSettings, way: Way): string {
  const parts = way === "pat" ? [settings.clientId, settings.clientSecret, settings.personalAccessToken] : [settings.api_key, settings.api_secret];
  return createHash("sha256")
    .update([way, ...parts].join("\0"))
    .digest("hex")
    .slice(0, 24);
}

/** Who the token signs in as. */
export interface FileVineUser {
  userId: string;
  orgId: string;
  name: string;
}

export class FileVineSession {
  readonly hosts: FileVineHosts;
  constructor(
    private readonly settings: FileVineSettings,
    readonly ctx: VendorContext,
  ) {
    const address = fileVineAddress(settings.subdomain);
    if (!address) throw new DmsTargetError(FILEVINE_KIND, `The credential's subdomain is not a FileVine web address: "${settings.subdomain}"`, false);
    this.hosts = fileVineHosts(ctx.baseUrl, address.region);
  }

  /** A token good for at least the renewal margin: the kept one or a new one. */
  async token(): Promise<StoredToken> {
    const way = this.way();
    const kept = await this.ctx.tokens.read();
    if (kept && kept.extra?.signIn === fingerprint(this.settings, way) && kept.expiresAt - RENEW_MARGIN_MS > this.ctx.now()) return kept;
    return this.signIn(way);
  }

  async user(): Promise<FileVineUser> {
    const token = await this.token();
    return { userId: token.extra?.userId ?? "", orgId: token.extra?.orgId ?? "", name: token.extra?.name ?? "" };
  }

  /** The API's URL of a resource path ("/Projects"): the gateway's v2 API, or the older API's /core. */
  urlOf(path: string, way: Way = this.way()): string {
    return way === "pat" ? `${this.hosts.gatewayRoot}${path}` : `${this.legacyOrigin()}/core${path.toLowerCase()}`;
  }

  private legacyOrigin(): string {
    if (this.hosts.legacyOrigin && this.hosts.region === "us") return this.hosts.legacyOrigin;
    throw new DmsTargetError(
      FILEVINE_KIND,
      `${TOKEN_FAILED}: FileVine's older API key sign-in exists in its US environment only; a firm on FileVine Canada signs in with a personal access token, client ID and secret`,
      false,
    );
  }

  /** The session's tokens as the HTTP layer renews them after a 401: FileVine's way is to sign in again. */
  private readonly tokens: TokenSource = {
    current: () => this.token(),
    renew: async () => {
      await this.ctx.tokens.clear();
      return this.signIn(this.way());
    },
  };

  /**
   * One API call as the signed-in user; a 401 signs in again and tries once more. Answers the
   * successful call's JSON read through `answer`; a refusal throws, `action` naming what was refused.
   */
  async call<T extends z.ZodTypeAny>(path: string, request: FileVineRequest & { json?: unknown }, action: string, answer: T): Promise<z.output<T>> {
    const way = this.way();
    const response = await authorized(this.tokens, (token) => this.authorised(path, request, token, way));
    if (!response.ok) throw await refusal(this.ctx, response, action);
    return parsed(answer, await readJson(response), action);
  }

  private authorised(path: string, request: FileVineRequest & { json?: unknown }, token: StoredToken, way: Way): Promise<Response> {
    const headers: Record<string, string> = {
      ...request.headers,
      authorization: `Bearer ${token.accessToken}`,
      "x-fv-orgid": token.extra?.orgId ?? "",
      "x-fv-userid": token.extra?.userId ?? "",
    };
    if (way === "key" && token.refreshToken) headers["x-fv-sessionid"] = token.refreshToken;
    let body = request.body;
    if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.json);
    }
    return send(this.ctx, this.hosts, withQuery(this.urlOf(path, way), request.query), { method: request.method, headers, body });
  }

  private way(): Way {
    const way = signInWay(this.settings);
    if (!way) {
      throw new DmsTargetError(
        FILEVINE_KIND,
        `${TOKEN_FAILED}: the credential needs a personal access token with its client ID and secret, or an API key and secret`,
        false,
      );
    }
    return way;
  }

  private async signIn(way: Way): Promise<StoredToken> {
    const token = way === "pat" ? await this.exchangePat() : await this.openKeySession();
    await this.ctx.tokens.write(token);
    return token;
  }

  /** A refused sign-in is no matter of time: 'Token generation failed' with FileVine's reason. */
  private async signInRefused(response: Response): Promise<DmsTargetError> {
    if (response.status === 429 || response.status >= 500) return refusal(this.ctx, response, "the sign-in");
    let reason: string | undefined;
    try {
      reason = vendorReason(await readJson(response));
    } catch {
      reason = undefined;
    }
    return new DmsTargetError(FILEVINE_KIND, `${TOKEN_FAILED}: ${reason ?? `HTTP ${response.status}`}`, false);
  }

  private async exchangePat(): Promise<StoredToken> {
    const { settings, ctx, hosts } = this;
    const form = new URLSearchParams({
      grant_type: "personal_access_token",
      token: settings.personalAccessToken.trim(),
      client_id: settings.clientId.trim(),
      client_secret: settings.clientSecret.trim(),
      scope: PAT_SCOPES,
    });
    const response = await send(ctx, hosts, hosts.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    if (!response.ok) throw await this.signInRefused(response);
    const token = tokenAnswer.safeParse(await readJson(response));
    if (!token.success) throw new DmsTargetError(FILEVINE_KIND, `${TOKEN_FAILED}: FileVine answered without a token`, false);
    const accessToken = token.data.access_token;
    const expiresIn = token.data.expires_in ?? 0;

    // The user and org the token acts for: every later call names them.
    const orgs = await send(ctx, hosts, new URL(`${hosts.gatewayRoot}/utils/GetUserOrgsWithToken`), {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!orgs.ok) throw await this.signInRefused(orgs);
    const who = userOrgs.safeParse(await readJson(orgs));
    if (!who.success) throw new DmsTargetError(FILEVINE_KIND, `${TOKEN_FAILED}: FileVine did not say which user and org the token belongs to`, false);
    const { User: user, Orgs: orgList } = who.data;
    const userId = user.UserId;
    const orgId = orgList[0]!.OrgId;
    const name = `${user.FirstName.trim()} ${user.LastName.trim()}`.trim() || user.Username.trim() || user.Email.trim();
    return {
      accessToken,
      expiresAt: ctx.now() + (expiresIn > 0 ? expiresIn * 1000 : LEGACY_SESSION_MS),
      extra: { signIn: fingerprint(settings, "pat"), userId, orgId, name },
    };
  }

  private async openKeySession(): Promise<StoredToken> {
    const { settings, ctx, hosts } = this;
    const apiKey = settings.api_key.trim();
    const apiTimestamp = new Date(ctx.now()).toISOString();
    const apiHash = createHash("md5").update(`${apiKey}/${apiTimestamp}/${settings.api_secret.trim()}`).digest("hex");
    const response = await send(ctx, hosts, new URL(`${this.legacyOrigin()}/session`), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mode: "key", apiKey, apiHash, apiTimestamp }),
    });
    if (!response.ok) throw await this.signInRefused(response);
    const session = keySessionAnswer.safeParse(await readJson(response));
    if (!session.success) throw new DmsTargetError(FILEVINE_KIND, `${TOKEN_FAILED}: FileVine's session answer lacks its token, session or ids`, false);
    const { AccessToken: accessToken, RefreshToken: sessionId, UserId: userId, OrgId: orgId } = session.data;
    const until = Date.parse(session.data.AccessTokenExpiry ?? "");
    return {
      accessToken,
      refreshToken: sessionId,
      expiresAt: Number.isNaN(until) ? ctx.now() + LEGACY_SESSION_MS : until,
      extra: { signIn: fingerprint(settings, "key"), userId, orgId, name: "" },
    };
  }
}
