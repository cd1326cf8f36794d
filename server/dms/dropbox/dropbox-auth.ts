import type { VendorContext } from "../vendor-target";
import { DmsTargetError } from "../dms-target";
import { DROPBOX_KIND, dropboxReason, retryAfterMs } from "./dropbox-errors";
import { type DropboxFetch, dropboxHttp } from "./dropbox-http";
import { token } from "./dropbox-answers";
import type { DropboxSettings } from "./dropbox-settings";

// Dropbox access tokens live four hours; the credential keeps the long-lived refresh token the
// firm's administrator obtained once. A short-lived token is kept in the credential's token
// store (so every process and filing shares it) and renewed a minute before it expires, or when
// Dropbox refuses it. The token call is made here rather than by the SDK so the client secret
// travels in the Authorization header (the SDK puts it in the URL) and the product's clock decides.

/** A token is renewed this long before Dropbox says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export const TOKEN_FAILED = "Token generation failed";

export class DropboxTokens {
  constructor(
    private readonly settings: DropboxSettings,
    private readonly ctx: VendorContext,
    private readonly fetch: DropboxFetch,
    private readonly tokenUrl: URL,
  ) {}

  /** A token valid for at least another minute: the stored one, or a new one. */
  async current(): Promise<string> {
    const stored = await this.ctx.tokens.read();
    if (stored && stored.refreshToken === this.settings.refresh_token && stored.expiresAt - TOKEN_MARGIN_MS > this.ctx.now()) return stored.accessToken;
    return this.renew();
  }

  /** Asks Dropbox for a new access token with the refresh token and stores it. */
  async renew(): Promise<string> {
    const basic = Buffer.from(`${this.settings.app_key}:${this.settings.app_secret}`).toString("base64");
    const response = await this.fetch(this.tokenUrl.href, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: this.settings.refresh_token }).toString(),
    });
    const text = await response.text();
    let answer: Record<string, unknown> = {};
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      answer = {};
    }
    if (!response.ok) {
      const reason = dropboxReason(Object.keys(answer).length ? answer : text) || `status ${response.status}`;
      const busy = response.status === 429 || response.status >= 500;
      // A refused refresh token or secret stays refused: the stored token is of no more use.
      if (!busy) await this.ctx.tokens.clear();
      throw new DmsTargetError(DROPBOX_KIND, `${TOKEN_FAILED}: ${reason}`, busy, {
        retryAfterMs: busy ? retryAfterMs(response.headers.get("retry-after"), answer, this.ctx.now()) : undefined,
      });
    }
    const { access_token: accessToken, expires_in: seconds = 0 } = dropboxHttp.parse(token, answer, "the token request");
    await this.ctx.tokens.write({ accessToken, refreshToken: this.settings.refresh_token, expiresAt: this.ctx.now() + seconds * 1000 });
    return accessToken;
  }
}
