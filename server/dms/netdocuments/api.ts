import type { BodyInit, Response } from "undici";
import { DmsTargetError } from "../dms-target";
import { type Schema, type TokenSource, vendorHttp } from "../vendor-http";
import type { StoredToken, VendorContext } from "../vendor-target";
import { token as tokenAnswer } from "./answers";
import { netDocumentsReason } from "./errors";
import { apiUrl, type NetDocumentsEndpoints } from "./hosts";

// One credential's calls to the NetDocuments REST API: every request through the vendors' one
// HTTP layer (vendor-http.ts: the outbound guard with the NetDocuments purpose, the context's
// time-out, bounded answers), a bearer token from the token store (renewed a minute before it
// expires, and once more when NetDocuments refuses it), answers parsed by the schemas of
// answers.ts, and failures as DmsTargetErrors.

/** A token is renewed this long before NetDocuments says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** Longest JSON answer read (a folder listing page is far smaller). */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** How a credential asks /v1/OAuth for a token. */
export interface NetDocumentsGrant {
  /** base64 of client_id:client_secret, sent as HTTP Basic. */
  basic: string;
  form: Record<string, string>;
}

export interface NetDocumentsSignIn {
  /** The grant for a new token; `stored` carries a refresh token NetDocuments rotated. */
  grant(stored: StoredToken | null): NetDocumentsGrant;
  /** An access token the credential already holds, tried before asking for a new one. */
  initialAccessToken?: string;
  /** What a refused grant adds to its message: how a person mends it ("connect to NetDocuments again"). */
  mend?: string;
}

export interface CallOptions {
  method?: "GET" | "POST";
  query?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as multipart/form-data (a fresh FormData per attempt). */
  multipart?: () => BodyInit;
  /** A 404 answers null instead of failing: the call asks whether something exists. */
  notFound?: boolean;
}

export class NetDocumentsApi {
  private readonly http;
  private current: StoredToken | null = null;
  private storedRefused = false;
  private initialTried = false;

  /** The credential's tokens as the HTTP layer renews them after a 401. */
  private readonly tokens: TokenSource<string> = {
    current: () => this.accessToken(),
    renew: () => {
      // The token was revoked or has expired early: neither the kept nor the credential's initial one serves again.
      this.current = null;
      this.storedRefused = true;
      this.initialTried = true;
      return this.accessToken();
    },
  };

  constructor(
    readonly kind: string,
    private readonly ctx: VendorContext,
    readonly endpoints: NetDocumentsEndpoints,
    private readonly signIn: NetDocumentsSignIn,
  ) {
    this.http = vendorHttp({ kind, vendor: "NetDocuments", maxAnswerBytes: MAX_JSON_BYTES, reasonOf: netDocumentsReason });
  }

  /** An API call's answer parsed by `schema`; `action` names it in errors ("the upload", "listing folder X"). */
  async json<T>(action: string, path: string, schema: Schema<T>, options: CallOptions & { notFound: true }): Promise<T | null>;
  async json<T>(action: string, path: string, schema: Schema<T>, options?: CallOptions): Promise<T>;
  async json<T>(action: string, path: string, schema: Schema<T>, options: CallOptions = {}): Promise<T | null> {
    const response = await this.call(action, path, options);
    if (response === null) return null;
    return this.http.answer(response, schema, action);
  }

  /** The bytes of an answer (a document's content), refused past `max`. */
  async bytes(action: string, path: string, max: number): Promise<Buffer> {
    return this.http.bytes(await this.call(action, path, {}), max);
  }

  /** A valid access token: the kept one while it lasts, else a new one from /v1/OAuth. */
  async accessToken(): Promise<string> {
    const now = this.ctx.now();
    if (this.current && this.current.expiresAt - TOKEN_MARGIN_MS > now) return this.current.accessToken;
    const stored = await this.ctx.tokens.read();
    if (stored && !this.storedRefused && stored.expiresAt - TOKEN_MARGIN_MS > now) {
      this.current = stored;
      return stored.accessToken;
    }
    if (!stored && !this.initialTried && this.signIn.initialAccessToken) {
      // Its expiry is unknown: used until NetDocuments refuses it, never stored.
      this.initialTried = true;
      this.current = { accessToken: this.signIn.initialAccessToken, expiresAt: Number.POSITIVE_INFINITY };
      return this.current.accessToken;
    }
    return (await this.renew(stored)).accessToken;
  }

  private async call(action: string, path: string, options: CallOptions & { notFound: true }): Promise<Response | null>;
  private async call(action: string, path: string, options?: CallOptions): Promise<Response>;
  private async call(action: string, path: string, options: CallOptions = {}): Promise<Response | null> {
    const url = apiUrl(this.endpoints, path, options.query);
    const response = await this.http.authorized(this.tokens, (token) => this.send(url, options, { authorization: `Bearer ${token}` }));
    if (response.status === 404 && options.notFound) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await this.http.refusal(this.ctx, response, action);
    return response;
  }

  private async send(url: URL, options: CallOptions, headers: Record<string, string>, prefix = ""): Promise<Response> {
    const body = options.multipart ? options.multipart() : options.form ? new URLSearchParams(options.form).toString() : undefined;
    const contentType: Record<string, string> = options.form && !options.multipart ? { "content-type": "application/x-www-form-urlencoded" } : {};
    try {
      return await this.http.send(this.ctx, this.endpoints.purpose, url, {
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        headers: { accept: "application/json", ...contentType, ...headers },
        body,
      });
    } catch (error) {
      if (!prefix || !(error instanceof DmsTargetError)) throw error;
      throw new DmsTargetError(this.kind, `${prefix}${error.message}`, error.retryable, { cause: error });
    }
  }

  /**
   * Exchanges the code NetDocuments sent back after a person approved ECFX for a token pair, and
   * keeps it (with when) in place of whatever refresh token the credential held.
   */
  async connect(code: string, redirectUri: string, basic: string): Promise<void> {
    const token = await this.renew(null, { basic, form: { grant_type: "authorization_code", code, redirect_uri: redirectUri } });
    const connected: StoredToken = { ...token, extra: { ...token.extra, connected_at: String(this.ctx.now()) } };
    await this.ctx.tokens.write(connected);
    this.current = connected;
  }

  /** Asks /v1/OAuth for a token and keeps it, with the refresh token NetDocuments may have rotated. */
  private async renew(stored: StoredToken | null, asked?: NetDocumentsGrant): Promise<StoredToken> {
    const failed = "Token generation failed: ";
    const grant = asked ?? this.signIn.grant(stored);
    const response = await this.send(apiUrl(this.endpoints, "/v1/OAuth"), { form: grant.form }, { authorization: `Basic ${grant.basic}` }, failed);
    if (!response.ok) {
      const reason = (await this.http.reasonIn(response)) ?? `HTTP ${response.status}`;
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable) {
        // Another filing may have renewed at the same moment and used up the rotated refresh token:
        // its token, when there is one now, is as good as ours would have been.
        const latest = await this.ctx.tokens.read();
        if (latest && latest.accessToken !== stored?.accessToken && latest.expiresAt - TOKEN_MARGIN_MS > this.ctx.now()) {
          this.current = latest;
          this.storedRefused = false;
          return latest;
        }
        // A refused grant makes the kept token worthless; the credential's own refresh token is tried next time.
        await this.ctx.tokens.clear();
      }
      // A refused grant (400 invalid_grant) is mended by a person's approval; a refused app (401) is not.
      const mend = response.status === 400 && this.signIn.mend ? `; ${this.signIn.mend}` : "";
      throw new DmsTargetError(this.kind, `${failed}${reason}${mend}`, retryable);
    }
    const answer = await this.http.answer(response, tokenAnswer, "the token request");
    const seconds = answer.expires_in ?? 0;
    const rotated = answer.refresh_token || undefined;
    const refreshToken = rotated ?? stored?.extra?.refresh_token ?? stored?.refreshToken;
    const token: StoredToken = {
      accessToken: answer.access_token,
      expiresAt: this.ctx.now() + (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0),
      ...(refreshToken
        ? { refreshToken, extra: { refresh_token: refreshToken, ...(stored?.extra?.connected_at ? { connected_at: stored.extra.connected_at } : {}) } }
        : {}),
    };
    await this.ctx.tokens.write(token);
    this.current = token;
    this.storedRefused = false;
    return token;
  }
}
