import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";
import { z } from "zod";
import { Connection } from "jsforce/lib/connection.js";
import { OAuth2 } from "jsforce/lib/oauth2.js";
import { DmsTargetError } from "../dms-target";
import type { TokenSource } from "../vendor-http";
import type { StoredToken, VendorContext } from "../vendor-target";
import { LITIFY_KIND, toDmsError } from "./litify-errors";
import { GuardedSalesforceTransport, salesforcePurpose } from "./litify-transport";

// Signing in to the firm's Salesforce org, where Litify lives, with jsforce over the guarded
// transport, by one of three OAuth flows the credential's fields choose (decision 110):
//  - JWT bearer, when client_secret holds a private key (PEM): an assertion signed with it for
//    the username, at the login URL (login.salesforce.com, or the operator's
//    ECFX_SALESFORCE_LOGIN_URL). Orgs created since 2023 block the username-password flow by
//    default; this one needs no password and no secret, only the certificate on the app;
//  - username-password, with a username and password, at the login URL;
//  - client credentials, with neither, at the org's own token endpoint
//    (<instance_url>/services/oauth2/token), as the connected app's run-as user.
// The token is kept sealed in the credential's token store.

/** The REST API version the client speaks. */
export const SALESFORCE_API_VERSION = "62.0";

/**
 * Salesforce's token answer says nothing of when the session ends: the org's session time-out
 * does, at least 15 minutes of inactivity. A kept token is used for that long and then renewed;
 * INVALID_SESSION_ID before that (a shorter policy, a revoked session) signs in again once.
 */
const SESSION_MS = 15 * 60_000;
const RENEW_MARGIN_MS = 60_000;

export interface LitifySettings {
  instance_url: string;
  client_id: string;
  client_secret: string;
  username: string;
  password: string;
  matter_column_name: string;
  folder_creation_sync_delay: number;
}

/** Salesforce takes a JWT bearer assertion that expires within three minutes. */
const ASSERTION_SECONDS = 170;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Whether a secret is a private key in PEM, which makes the sign-in the JWT bearer flow. */
export const isPrivateKey = (secret: string) => /-----BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----/.test(secret);

type Flow = "jwt" | "password" | "client";

/** Salesforce's token answer, as far as the client reads it. */
const tokenAnswerSchema = z.object({ access_token: z.string().min(1), instance_url: z.string().url() });

const trimSlash = (url: string) => url.trim().replace(/\/+$/, "");

export class LitifySession {
  private readonly transport: GuardedSalesforceTransport;
  private readonly flow: Flow;

  constructor(
    private readonly settings: LitifySettings,
    private readonly ctx: VendorContext,
  ) {
    this.transport = new GuardedSalesforceTransport(ctx, salesforcePurpose(ctx.baseUrl, settings.instance_url), this.tokens);
    this.flow = isPrivateKey(settings.client_secret) ? "jwt" : settings.username.trim() ? "password" : "client";
  }

  private get atLoginUrl(): boolean {
    return this.flow !== "client";
  }

  /** How the credential signs in, in words for the connection test. */
  describe(): string {
    if (this.flow === "jwt") return `as ${this.settings.username.trim()} (JWT bearer)`;
    return this.flow === "password" ? `as ${this.settings.username.trim()} (username and password)` : "as the connected app's run-as user (client credentials)";
  }

  /** Whose token a kept one is: a token of other settings is not used. */
  private signInKey(): string {
    const flow = this.atLoginUrl
      ? `${this.flow}:${trimSlash(this.ctx.baseUrl)}:${this.settings.username.trim()}`
      : `client:${trimSlash(this.settings.instance_url)}`;
    return `${flow}:${this.settings.client_id.trim()}`;
  }

  /**
   * The session's tokens as the HTTP layer renews them: Salesforce ends a session after the org's
   * time-out of inactivity (401, INVALID_SESSION_ID), and a new sign-in replaces it.
   */
  private readonly tokens: TokenSource<string> = {
    current: async () => ((await this.kept()) ?? (await this.newSession())).accessToken,
    renew: async () => {
      await this.ctx.tokens.clear();
      return (await this.newSession()).accessToken;
    },
  };

  /** A new session from Salesforce's token endpoint, kept in the token store. */
  async signIn(): Promise<Connection> {
    return this.connectionOf(await this.newSession());
  }

  private async newSession(): Promise<StoredToken> {
    if (this.flow === "password" && !this.settings.password) {
      throw new DmsTargetError(LITIFY_KIND, "Token generation failed: the credential has a username but no password", false);
    }
    if (this.flow === "jwt" && !this.settings.username.trim()) {
      throw new DmsTargetError(LITIFY_KIND, "Token generation failed: the JWT bearer sign-in needs the username of the Salesforce user ECFX files as", false);
    }
    const loginUrl = trimSlash(this.atLoginUrl ? this.ctx.baseUrl : this.settings.instance_url);
    const oauth2 = new OAuth2({
      loginUrl,
      clientId: this.settings.client_id.trim(),
      clientSecret: this.flow === "jwt" ? undefined : this.settings.client_secret,
    });
    oauth2._transport = this.transport;
    let answer: unknown;
    try {
      // jsforce answers undefined when the 2xx body is not JSON (a proxy's page, say).
      answer = ((this.flow === "jwt"
        ? await oauth2.requestToken({ grant_type: JWT_BEARER, assertion: await this.assertion(loginUrl) })
        : this.flow === "password"
          ? await oauth2.authenticate(this.settings.username.trim(), this.settings.password)
          : await oauth2.requestToken({ grant_type: "client_credentials" })) ?? {}) as unknown;
    } catch (error) {
      throw toDmsError(error, "the sign-in");
    }
    const parsed = tokenAnswerSchema.safeParse(answer);
    if (!parsed.success) {
      throw new DmsTargetError(LITIFY_KIND, "Token generation failed: Salesforce answered without a token or instance URL", false);
    }
    const token: StoredToken = {
      accessToken: parsed.data.access_token,
      expiresAt: this.ctx.now() + SESSION_MS,
      extra: { instanceUrl: trimSlash(parsed.data.instance_url), signIn: this.signInKey() },
    };
    await this.ctx.tokens.write(token);
    return token;
  }

  /**
   * The JWT bearer assertion: issuer the connected app's consumer key, subject the user, audience
   * the login URL, RS256 with the key whose certificate the app holds. Salesforce compares the
   * expiry with its own clock, so it is dated by the system clock.
   */
  private async assertion(loginUrl: string): Promise<string> {
    let key;
    try {
      key = createPrivateKey(this.settings.client_secret.trim());
    } catch (error) {
      throw new DmsTargetError(LITIFY_KIND, "Token generation failed: the private key in the consumer secret field cannot be read (PEM, unencrypted)", false, {
        cause: error,
      });
    }
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(this.settings.client_id.trim())
      .setSubject(this.settings.username.trim())
      .setAudience(loginUrl)
      .setExpirationTime(now + ASSERTION_SECONDS)
      .sign(key);
  }

  private connectionOf(token: StoredToken): Connection {
    const connection = new Connection({ instanceUrl: token.extra!.instanceUrl!, accessToken: token.accessToken, version: SALESFORCE_API_VERSION });
    connection._transport = this.transport;
    return connection;
  }

  /** The kept session while it is good for a while yet. */
  private async kept(): Promise<StoredToken | null> {
    const kept = await this.ctx.tokens.read();
    const usable = kept?.extra?.signIn === this.signInKey() && kept.extra.instanceUrl && kept.expiresAt - RENEW_MARGIN_MS > this.ctx.now();
    return usable ? kept : null;
  }

  /** Runs `call` in the kept session or a new one; one Salesforce ends meanwhile is replaced by the transport. */
  async run<T>(call: (connection: Connection) => Promise<T>): Promise<T> {
    return call(this.connectionOf((await this.kept()) ?? (await this.newSession())));
  }
}
