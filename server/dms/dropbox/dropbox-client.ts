import { Dropbox, DropboxResponseError, type DropboxResponse } from "dropbox";
import type { VendorContext } from "../vendor-target";
import { dropboxRefusal } from "./dropbox-errors";
import { dropboxHosts } from "./dropbox-hosts";
import { guardedFetch } from "./dropbox-http";
import { DropboxTokens } from "./dropbox-auth";
import type { DropboxSettings } from "./dropbox-settings";

// The official SDK, fed a fetch that goes through the guard and a token from the credential's
// store. The SDK is given no refresh token: renewing is DropboxTokens' job, once, when Dropbox
// refuses the token (401), and then the call is made again.

export class DropboxClient {
  readonly tokens: DropboxTokens;
  private readonly fetch;

  constructor(
    settings: DropboxSettings,
    private readonly ctx: VendorContext,
  ) {
    const hosts = dropboxHosts(ctx.baseUrl, ctx.authUrl);
    this.fetch = guardedFetch(ctx, hosts);
    this.tokens = new DropboxTokens(settings, ctx, this.fetch, hosts.tokenUrl);
  }

  /** Runs one SDK call; a refusal becomes a DropboxRefusal naming `action` ("the upload of /a/b.pdf"). */
  async call<T>(action: string, run: (dropbox: Dropbox) => Promise<DropboxResponse<T>>): Promise<T> {
    let token = await this.tokens.current();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await run(new Dropbox({ accessToken: token, fetch: this.fetch }))).result;
      } catch (error) {
        if (!(error instanceof DropboxResponseError)) throw error;
        const refused = error as DropboxResponseError<unknown>;
        if (refused.status === 401 && attempt === 1) {
          token = await this.tokens.renew();
          continue;
        }
        const headers = refused.headers as { get(name: string): string | null } | undefined;
        throw dropboxRefusal(action, refused.status, refused.error, headers?.get("retry-after") ?? null, this.ctx.now());
      }
    }
  }
}
