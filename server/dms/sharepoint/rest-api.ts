import type { Response } from "undici";
import { z } from "zod";
import { type ApiRequest, SharePointApi, type SharePointWire } from "./sharepoint-api";
import type { WindowsSignIn } from "./windows-sign-in";

// SharePoint Server's REST API (/_api, JSON "nometadata", SharePoint 2016 and later) for one
// site, signed in with Windows sign-in on the connection. Writes carry the form digest from
// POST /_api/contextinfo, kept until shortly before it times out; a 403 on a write fetches a
// new digest once.

const DIGEST_MARGIN_MS = 60_000;
const contextInfoSchema = z.object({ FormDigestValue: z.string().min(1), FormDigestTimeoutSeconds: z.number().positive() });
const ACCEPT = "application/json;odata=nometadata";

export class RestApi extends SharePointApi {
  private digest?: { value: string; renewAt: number };

  constructor(
    /** The site's address without a trailing slash: "https://sp.contoso.local/sites/Legal". */
    readonly siteUrl: string,
    private readonly signIn: WindowsSignIn,
    wire: SharePointWire,
  ) {
    super(wire);
  }

  async send(request: ApiRequest): Promise<Response> {
    const first = await this.attempt(request);
    if (!(first.status === 403 && request.method !== "GET")) return first;
    await first.body?.cancel();
    this.digest = undefined;
    return this.attempt(request);
  }

  private async attempt(request: ApiRequest): Promise<Response> {
    const headers: Record<string, string> = { accept: ACCEPT, ...request.headers };
    if (request.method !== "GET") headers["x-requestdigest"] = await this.formDigest();
    if (request.json !== undefined) headers["content-type"] = "application/json;odata=nometadata";
    else if (request.contentType) headers["content-type"] = request.contentType;
    const body = request.bytes ?? (request.json === undefined ? undefined : JSON.stringify(request.json));
    return this.signIn.send(new URL(`${this.siteUrl}/_api/${request.path.replace(/^\//, "")}`), { method: request.method, headers, body });
  }

  private async formDigest(): Promise<string> {
    if (this.digest && this.digest.renewAt > this.wire.ctx.now()) return this.digest.value;
    const response = await this.signIn.send(new URL(`${this.siteUrl}/_api/contextinfo`), { method: "POST", headers: { accept: ACCEPT } });
    const info = await this.read(response, "asking for a form digest", contextInfoSchema);
    this.digest = { value: info.FormDigestValue, renewAt: this.wire.ctx.now() + info.FormDigestTimeoutSeconds * 1000 - DIGEST_MARGIN_MS };
    return info.FormDigestValue;
  }
}

/** A server-relative URL as a REST string literal: quotes doubled, then percent-encoded. */
export const restLiteral = (serverRelativeUrl: string) => `'${encodeURIComponent(serverRelativeUrl.replace(/'/g, "''"))}'`;
