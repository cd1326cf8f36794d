import type { Response } from "undici";
import type { VendorContext } from "../vendor-target";
import type { FedAuthTokens } from "./fed-auth";
import { authHeaders } from "./fed-auth";
import { type ApiRequest, SharePointApi } from "./sharepoint-api";
import { type CallOptions, guardedFetch } from "../guarded-call";

// SharePoint Server's REST API (/_api, JSON "nometadata", SharePoint 2016 and later) for one
// site. Writes carry the form digest from POST /_api/contextinfo, kept until shortly before it
// times out; a 401 signs in again once, a 403 on a write fetches a new digest once.

const DIGEST_MARGIN_MS = 60_000;
const ACCEPT = "application/json;odata=nometadata";

export class RestApi extends SharePointApi {
  private digest?: { value: string; renewAt: number };

  constructor(
    /** The site's address without a trailing slash: "https://sp.contoso.local/sites/Legal". */
    readonly siteUrl: string,
    private readonly tokens: FedAuthTokens,
    private readonly call: CallOptions,
    private readonly ctx: VendorContext,
  ) {
    super(call.kind, () => ctx.now());
  }

  async send(request: ApiRequest): Promise<Response> {
    const first = await this.attempt(request, false);
    if (first.status !== 401 && !(first.status === 403 && request.method !== "GET")) return first;
    await first.body?.cancel();
    return this.attempt(request, true);
  }

  private async attempt(request: ApiRequest, fresh: boolean): Promise<Response> {
    const token = fresh ? await this.tokens.renew() : await this.tokens.current();
    if (fresh) this.digest = undefined;
    const headers: Record<string, string> = { accept: ACCEPT, ...authHeaders(token), ...request.headers };
    if (request.method !== "GET") headers["x-requestdigest"] = await this.formDigest(authHeaders(token));
    if (request.json !== undefined) headers["content-type"] = "application/json;odata=nometadata";
    else if (request.contentType) headers["content-type"] = request.contentType;
    const body = request.bytes ?? (request.json === undefined ? undefined : JSON.stringify(request.json));
    return guardedFetch(this.call, new URL(`${this.siteUrl}/_api/${request.path.replace(/^\//, "")}`), { method: request.method, headers, body });
  }

  private async formDigest(auth: Record<string, string>): Promise<string> {
    if (this.digest && this.digest.renewAt > this.ctx.now()) return this.digest.value;
    const response = await guardedFetch(this.call, new URL(`${this.siteUrl}/_api/contextinfo`), { method: "POST", headers: { accept: ACCEPT, ...auth } });
    const info = await this.read<{ FormDigestValue: string; FormDigestTimeoutSeconds: number }>(response, "asking for a form digest");
    this.digest = { value: info.FormDigestValue, renewAt: this.ctx.now() + info.FormDigestTimeoutSeconds * 1000 - DIGEST_MARGIN_MS };
    return info.FormDigestValue;
  }
}

/** A server-relative URL as a REST string literal: quotes doubled, then percent-encoded. */
export const restLiteral = (serverRelativeUrl: string) => `'${encodeURIComponent(serverRelativeUrl.replace(/'/g, "''"))}'`;
