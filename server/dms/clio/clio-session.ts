import type { Response } from "undici";
import { DmsTargetError } from "../dms-target";
import type { StoredToken } from "../vendor-target";
import { CLIO_KIND } from "./clio-hosts";
import type { TokenSource } from "../vendor-http";
import { type ClioConnection, type ClioRequest, clioHttp, readJson, refusal, send } from "./clio-http";

// Clio's OAuth 2 authorization-code grant (developers.clio.com, "Authorization"): a person of the
// firm approves ECFX at <host>/oauth/authorize, Clio sends the browser back with a code, and
// ECFX exchanges it at <host>/oauth/token for an access token (expires_in seconds) and a refresh
// token. The pair lives sealed in the credential's token store; the access token is renewed with
// the refresh token before it expires. A refused refresh forgets the pair: only connecting again
// mends that.

/** A token is renewed this long before Clio says it expires. */
const RENEW_MARGIN_MS = 5 * 60_000;
const TOKEN_PATH = "/oauth/token";
/** Spec §8's words for a refused sign-in; Clio's reason follows after ": ". */
export const TOKEN_FAILED = "Token generation failed";
export const NOT_CONNECTED = 'Not connected to Clio yet: open the credential\'s page and use "Connect to Clio"';

export interface ClioApp {
  client_id: string;
  client_secret: string;
}

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** The browser's way to Clio's consent page: state binds the answer to the firm, credential and person who asked. */
export function clioAuthorizeUrl(connection: ClioConnection, app: ClioApp, state: string, redirectUri: string): string {
  const url = new URL("/oauth/authorize", connection.base.origin);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", app.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url.toString();
}

export class ClioSession {
  constructor(
    private readonly connection: ClioConnection,
    private readonly app: ClioApp,
  ) {}

  /** Whether a person connected the credential to Clio, and when. */
  async status(): Promise<{ connected: boolean; connectedAt: number | null }> {
    const stored = await this.connection.ctx.tokens.read();
    return { connected: Boolean(stored), connectedAt: stored?.extra?.connected_at ? Number(stored.extra.connected_at) : null };
  }

  /** A token good for at least the margin: the stored one or a refreshed one. */
  async token(): Promise<StoredToken> {
    const stored = await this.connection.ctx.tokens.read();
    if (!stored) throw new DmsTargetError(CLIO_KIND, NOT_CONNECTED, false);
    if (stored.expiresAt - RENEW_MARGIN_MS > this.connection.ctx.now()) return stored;
    return this.refresh(stored);
  }

  /** Exchanges the code Clio sent back for a token pair, and keeps it sealed. */
  async exchange(code: string, redirectUri: string): Promise<void> {
    const token = await this.grant({ grant_type: "authorization_code", code, redirect_uri: redirectUri }, null);
    await this.connection.ctx.tokens.write({ ...token, extra: { connected_at: String(this.connection.ctx.now()) } });
  }

  /** Clio's tokens as the HTTP layer renews them after a 401. */
  private readonly tokens: TokenSource = { current: () => this.token(), renew: (rejected) => this.refresh(rejected) };

  /** One API call; a 401 renews the token and tries once more. Answers the JSON of a successful call. */
  async call(path: string, request: ClioRequest, action: string): Promise<unknown> {
    const response = await clioHttp.authorized(this.tokens, (token) => this.authorised(path, request, token));
    if (!response.ok) throw await refusal(this.connection, response, action);
    return readJson(response);
  }

  private authorised(path: string, request: ClioRequest, token: StoredToken): Promise<Response> {
    return send(this.connection, path, {
      ...request,
      headers: { accept: "application/json", ...request.headers, authorization: `Bearer ${token.accessToken}` },
    });
  }

  private async refresh(stored: StoredToken): Promise<StoredToken> {
    if (!stored.refreshToken) {
      await this.connection.ctx.tokens.clear();
      throw new DmsTargetError(CLIO_KIND, `${TOKEN_FAILED}: Clio gave no refresh token; connect to Clio again`, false);
    }
    const renewed = await this.grant({ grant_type: "refresh_token", refresh_token: stored.refreshToken }, stored);
    // Clio keeps the refresh token unless it sends a new one.
    const kept: StoredToken = { ...renewed, refreshToken: renewed.refreshToken ?? stored.refreshToken, extra: stored.extra };
    await this.connection.ctx.tokens.write(kept);
    return kept;
  }

  /** One token request. A refused refresh forgets the stored pair: nobody can renew it any more. */
  private async grant(fields: Record<string, string>, refreshing: StoredToken | null): Promise<StoredToken> {
    const { ctx } = this.connection;
    const body = new URLSearchParams({ ...fields, client_id: this.app.client_id, client_secret: this.app.client_secret });
    const response = await send(this.connection, TOKEN_PATH, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: body.toString(),
    });
    if (!response.ok) {
      const error = await refusal(this.connection, response, "the sign-in", TOKEN_FAILED);
      if (refreshing && !error.retryable) {
        await ctx.tokens.clear();
        throw new DmsTargetError(CLIO_KIND, `${error.message}; connect to Clio again`, false, { cause: error });
      }
      throw error;
    }
    const answer = (await readJson(response)) as TokenAnswer | null;
    if (typeof answer?.access_token !== "string" || !answer.access_token)
      throw new DmsTargetError(CLIO_KIND, `${TOKEN_FAILED}: Clio sent no access token`, false);
    const seconds = Number(answer.expires_in ?? 0);
    const token: StoredToken = { accessToken: answer.access_token, expiresAt: ctx.now() + (seconds > 0 ? seconds : 0) * 1000 };
    if (typeof answer.refresh_token === "string" && answer.refresh_token) token.refreshToken = answer.refresh_token;
    return token;
  }
}
