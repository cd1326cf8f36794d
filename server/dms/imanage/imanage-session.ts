import type { Response } from "undici";
import { DmsTargetError } from "../dms-target";
import type { StoredToken } from "../vendor-target";
import { authorized, type IManageConnection, type IManageRequest, readAnswer, refusal, send } from "./imanage-http";
import { discovery, token as tokenAnswer } from "./imanage-answers";
import type { Schema, TokenSource } from "../vendor-http";

// Signing in to iManage Work and calling its API as the credential's user. iManage issues tokens
// at /auth/oauth2/token with OAuth 2's password grant (the app's client id and secret with the
// user's name and password) or, for tenants that sign in through their identity provider (SSO),
// where no password exists, the authorization-code grant: a person approves ECFX at
// /auth/oauth2/authorize and the code iManage sends back is exchanged once. Tokens are renewed
// with the refresh token where the firm's app registration allows one ("Allow Refresh Token").
// The token lives in the credential's token store, with the customer id and user id that
// discovery (GET /api) reported, so another process reuses it.

/** A token is renewed this long before iManage says it expires. */
const RENEW_MARGIN_MS = 60_000;
const TOKEN_PATH = "/auth/oauth2/token";
/** The spec's message for a refused sign-in; iManage's reason follows after ": ". */
const TOKEN_FAILED = "Token generation failed";
export const IMANAGE_NOT_CONNECTED = 'Not connected to iManage yet: open the credential\'s page and use "Connect to iManage"';

/** How the credential signs in: a user's password, or a person's approval (SSO tenants). */
export const IMANAGE_SIGN_IN_METHODS = ["password", "authorization_code"] as const;
export type IManageSignInMethod = (typeof IMANAGE_SIGN_IN_METHODS)[number];

export interface IManageSignIn {
  username: string;
  password: string;
  client_id: string;
  client_secret: string;
  /** The credential's customer id; 0 when unset, then the one discovery reports is used. */
  customer_id: number;
  /** "password" when unset (credentials from before the choice existed). */
  sign_in?: IManageSignInMethod | null;
}

/** The browser's way to iManage's consent page: state binds the answer to the firm, credential and person who asked. */
export function imanageAuthorizeUrl(base: URL, clientId: string, state: string, redirectUri: string): string {
  const url = new URL("/auth/oauth2/authorize", base.origin);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", "user");
  url.searchParams.set("state", state);
  return url.toString();
}

/** Who the token signs in as, from discovery. */
export interface IManageUser {
  userId: string;
  customerId: number;
}

export class IManageSession {
  constructor(
    private readonly connection: IManageConnection,
    private readonly signIn: IManageSignIn,
  ) {}

  private get approved(): boolean {
    return this.signIn.sign_in === "authorization_code";
  }

  /** Whether the credential needs a person's approval, whether one was given, and when. */
  async status(): Promise<{ connected: boolean; connectedAt: number | null; required: boolean }> {
    const stored = await this.connection.ctx.tokens.read();
    const connectedAt = stored?.extra?.connected_at ? Number(stored.extra.connected_at) : null;
    return { connected: this.approved ? connectedAt !== null : Boolean(stored), connectedAt, required: this.approved };
  }

  /** Exchanges the code iManage sent back for a token, learns who it belongs to and keeps it sealed. */
  async exchange(code: string, redirectUri: string): Promise<void> {
    const token = await this.grant({ grant_type: "authorization_code", code, redirect_uri: redirectUri }, false);
    if (!token) throw new DmsTargetError(this.connection.kind, TOKEN_FAILED, false);
    await this.keep(token, { ...(await this.discover(token)), connected_at: String(this.connection.ctx.now()) });
  }

  /** A token that is good for at least the renewal margin: the stored one, a refreshed one or a new one. */
  async token(): Promise<StoredToken> {
    const stored = await this.connection.ctx.tokens.read();
    if (stored && stored.expiresAt - RENEW_MARGIN_MS > this.connection.ctx.now()) return stored;
    return this.renew(stored);
  }

  /** The signed-in user and the customer id the API paths use (the credential's own when set). */
  async user(): Promise<IManageUser> {
    const token = await this.token();
    const discovered = Number(token.extra?.customer_id ?? 0);
    return { userId: token.extra?.user_id ?? this.signIn.username, customerId: this.signIn.customer_id || discovered };
  }

  /** `/work/api/v2/customers/<customer>/libraries/<library>` + `suffix`. */
  async libraryPath(library: string, suffix: string): Promise<string> {
    const { customerId } = await this.user();
    if (!customerId)
      throw new DmsTargetError(this.connection.kind, "iManage did not say which customer the user belongs to; set the credential's customer id", false);
    return `/work/api/v2/customers/${customerId}/libraries/${encodeURIComponent(library)}${suffix}`;
  }

  /** The session's tokens as the HTTP layer renews them after a 401. */
  private readonly tokens: TokenSource = { current: () => this.token(), renew: (rejected) => this.renew(rejected) };

  /**
   * One API call as the signed-in user; a 401 renews the token and tries once more. Answers the
   * JSON of a successful call; a refusal throws (see `refusal`), `action` naming what was refused.
   */
  async call<T>(path: string, request: IManageRequest, action: string, schema: Schema<T>): Promise<T> {
    const response = await authorized(this.connection, this.tokens, (token) => this.authorised(path, request, token));
    if (!response.ok) throw await refusal(this.connection, response, action);
    return readAnswer(this.connection.kind, response, schema, action);
  }

  private authorised(path: string, request: IManageRequest, token: StoredToken): Promise<Response> {
    return send(this.connection, path, { ...request, headers: { ...request.headers, "x-auth-token": token.accessToken } });
  }

  /** Refreshes when there is a refresh token and iManage still takes it, signs in again otherwise. */
  private async renew(stored: StoredToken | null): Promise<StoredToken> {
    if (stored?.refreshToken) {
      const refreshed = await this.grant({ grant_type: "refresh_token", refresh_token: stored.refreshToken }, true);
      if (refreshed) return this.keep(refreshed, stored.extra);
      await this.connection.ctx.tokens.clear();
    }
    // Approved credentials have no password to fall back on: a person must approve again.
    if (this.approved) {
      if (stored) await this.connection.ctx.tokens.clear();
      throw new DmsTargetError(
        this.connection.kind,
        stored ? `${TOKEN_FAILED}: iManage no longer takes the approval; connect to iManage again` : IMANAGE_NOT_CONNECTED,
        false,
      );
    }
    const { username, password } = this.signIn;
    if (!username || !password) throw new DmsTargetError(this.connection.kind, `${TOKEN_FAILED}: the credential has no user name or password`, false);
    const fresh = await this.grant({ grant_type: "password", username, password, scope: "user" }, false);
    if (!fresh) throw new DmsTargetError(this.connection.kind, TOKEN_FAILED, false);
    return this.keep(fresh, await this.discover(fresh));
  }

  private async keep(token: StoredToken, extra: Record<string, string> | undefined): Promise<StoredToken> {
    const kept: StoredToken = extra ? { ...token, extra } : token;
    await this.connection.ctx.tokens.write(kept);
    return kept;
  }

  /** One token request; a refused refresh answers null (the caller signs in again), any other refusal throws. */
  private async grant(fields: Record<string, string>, refreshing: boolean): Promise<StoredToken | null> {
    const { kind, ctx } = this.connection;
    const body = new URLSearchParams({ ...fields, client_id: this.signIn.client_id, client_secret: this.signIn.client_secret });
    const response = await send(this.connection, TOKEN_PATH, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    if (!response.ok) {
      if (refreshing && (response.status === 400 || response.status === 401)) {
        await response.body?.cancel();
        return null;
      }
      throw await refusal(this.connection, response, "the sign-in", TOKEN_FAILED);
    }
    const answer = await readAnswer(kind, response, tokenAnswer, "the sign-in");
    const seconds = answer.expires_in ?? 0;
    const token: StoredToken = { accessToken: answer.access_token, expiresAt: ctx.now() + (seconds > 0 ? seconds : 0) * 1000 };
    if (answer.refresh_token) token.refreshToken = answer.refresh_token;
    return token;
  }

  /** Discovery (GET /api): who the token belongs to and the customer id the API paths need. */
  private async discover(token: StoredToken): Promise<Record<string, string>> {
    const response = await this.authorised("/api", {}, token);
    if (!response.ok) throw await refusal(this.connection, response, "the sign-in", TOKEN_FAILED);
    const { user } = (await readAnswer(this.connection.kind, response, discovery, "the discovery call")).data;
    const extra: Record<string, string> = {};
    if (user?.id) extra.user_id = user.id;
    if (user?.customer_id !== undefined) extra.customer_id = String(user.customer_id);
    return extra;
  }
}
