import { Dropbox, DropboxResponseError, type DropboxResponse } from "dropbox";
import type { VendorContext } from "../vendor-target";
import { dropboxRefusal } from "./dropbox-errors";
import { dropboxHosts } from "./dropbox-hosts";
import { dropboxHttp, guardedFetch } from "./dropbox-http";
import { account } from "./dropbox-answers";
import type { Schema } from "../vendor-http";
import { DropboxTokens } from "./dropbox-auth";
import type { DropboxSettings } from "./dropbox-settings";

// The official SDK, fed a fetch that goes through the guard and a token from the credential's
// store. The SDK is given no refresh token: its fetch sends DropboxTokens' token, and the vendors'
// HTTP layer renews it once when Dropbox refuses it (401) and makes the call again. Members of a
// Dropbox team with team space see the team's shared folders only from the team's root namespace: the account's
// root_info (users/get_current_account) names it, and when it is not the member's home
// namespace every call carries Dropbox-API-Path-Root {".tag": "root", "root": <id>} (Dropbox's
// "Namespace guide"), so paths are read from the team space the firm sees. Every result is parsed
// by the schema of its answer (dropbox-answers.ts), whatever type the SDK gives it.

export class DropboxClient {
  readonly tokens: DropboxTokens;
  private readonly fetch;
  /** The Path-Root header value, once the account's root is known ("" for a user's own root). */
  private pathRoot: Promise<string> | undefined;

  constructor(
    settings: DropboxSettings,
    private readonly ctx: VendorContext,
  ) {
    const hosts = dropboxHosts(ctx.baseUrl, ctx.authUrl);
    this.tokens = new DropboxTokens(settings, ctx, guardedFetch(ctx, hosts), hosts.tokenUrl);
    this.fetch = guardedFetch(ctx, hosts, this.tokens);
  }

  /**
   * Runs one SDK call and reads its result through `schema`; a refusal becomes a DropboxRefusal
   * naming `action` ("the upload of /a/b.pdf"), an answer of another shape a permanent error.
   */
  async call<T>(action: string, schema: Schema<T>, run: (dropbox: Dropbox) => Promise<DropboxResponse<unknown>>): Promise<T> {
    this.pathRoot ??= this.rootOf().catch((error: unknown) => {
      this.pathRoot = undefined;
      throw error;
    });
    const pathRoot = await this.pathRoot;
    return dropboxHttp.parse(schema, await this.send(action, run, pathRoot), action);
  }

  /** The team space's root namespace when the account is a team member's with one; "" otherwise. */
  private async rootOf(): Promise<string> {
    const action = "reading the account's root";
    const root = dropboxHttp.parse(account, await this.send(action, (dropbox) => dropbox.usersGetCurrentAccount(), ""), action).root_info;
    if (root.root_namespace_id === root.home_namespace_id) return "";
    return JSON.stringify({ ".tag": "root", root: root.root_namespace_id });
  }

  private async send(action: string, run: (dropbox: Dropbox) => Promise<DropboxResponse<unknown>>, pathRoot: string): Promise<unknown> {
    // The SDK wants a token of its own; the fetch sends the tokens' current one in its place.
    const accessToken = await this.tokens.current();
    try {
      return (await run(new Dropbox({ accessToken, fetch: this.fetch, ...(pathRoot ? { pathRoot } : {}) }))).result;
    } catch (error) {
      if (!(error instanceof DropboxResponseError)) throw error;
      const refused = error as DropboxResponseError<unknown>;
      const headers = refused.headers as { get(name: string): string | null } | undefined;
      throw dropboxRefusal(action, refused.status, refused.error, headers?.get("retry-after") ?? null, this.ctx.now());
    }
  }
}
