import { PassThrough } from "node:stream";
import { Transport } from "jsforce/lib/transport.js";
import type { HttpRequest, HttpResponse } from "jsforce/lib/types/common.js";
import { StreamPromise } from "jsforce/lib/util/promise.js";
import type { OutboundPurpose } from "../../outbound/guard";
import { retryAfterMs, type TokenSource, vendorHttp } from "../vendor-http";
import { DmsTargetError } from "../dms-target";
import type { VendorContext } from "../vendor-target";
import { LITIFY_KIND, SalesforceCallError, salesforceReason } from "./litify-errors";

// jsforce makes every HTTP call through its Transport (Connection._transport, OAuth2._transport);
// it has no option for another fetch, so the client gives both this subclass, which sends through
// the vendors' one HTTP layer (vendor-http.ts: the outbound guard, the call's time-out, at most
// MAX_ANSWER_BYTES read), and turns
// any answer other than 2xx into SalesforceCallError with Salesforce's own reason and Retry-After.
// jsforce's own retries and redirects (its default transport's) are thereby left out: retrying is
// the storage step's business, but for one new session when Salesforce ends the kept one.

/** Largest answer read: query pages of a few ids and names, insert results, errors. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const http = vendorHttp({ kind: LITIFY_KIND, vendor: "Salesforce", maxAnswerBytes: MAX_ANSWER_BYTES, reasonOf: () => undefined });

const hostOf = (url: string) =>
  new URL(url).hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/**
 * Salesforce's hosts: the sign-in's (login.salesforce.com or the operator's switch), the firm's
 * instance, and the org's own domains the token may name (my.salesforce.com, force.com).
 */
export function salesforcePurpose(loginUrl: string, instanceUrl: string): OutboundPurpose {
  const named = new Set([hostOf(loginUrl), hostOf(instanceUrl)]);
  return {
    name: "Salesforce (Litify)",
    hostAllowed: (host) => named.has(host) || host.endsWith(".salesforce.com") || host.endsWith(".force.com"),
  };
}

/** Headers the fetch sets itself from the body and the URL. */
const OWN_HEADERS = new Set(["content-length", "host", "transfer-encoding"]);

function bodyOf(body: HttpRequest["body"]): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || Buffer.isBuffer(body)) return body;
  if (body instanceof URLSearchParams) return body.toString();
  // The client sends JSON, form parameters and multipart bodies it built itself, nothing streamed.
  throw new DmsTargetError(LITIFY_KIND, "A request body of an unexpected kind was not sent to Salesforce", false);
}

export class GuardedSalesforceTransport extends Transport {
  constructor(
    private readonly ctx: VendorContext,
    private readonly purpose: OutboundPurpose,
    /** The session's tokens: a call Salesforce refuses (401, INVALID_SESSION_ID) is sent once more with a new one. */
    private readonly tokens?: TokenSource<string>,
  ) {
    super();
  }

  override httpRequest(request: HttpRequest): StreamPromise<HttpResponse> {
    // jsforce reads the answer from the promise; the stream only serves piping, which this client never does.
    return StreamPromise.create(() => ({ stream: new PassThrough().end(), promise: this.send(request) }));
  }

  private async send(request: HttpRequest): Promise<HttpResponse> {
    const url = new URL(request.url);
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())));
    const response = await http.sendWith(this.tokens, this.ctx, this.purpose, url, { method: request.method, headers, body: bodyOf(request.body) });
    const text = await http.text(response);
    if (response.status >= 400) {
      const { code, reason } = salesforceReason(text, response.status);
      const wait = retryAfterMs(response.headers.get("retry-after"), this.ctx.now());
      throw new SalesforceCallError(response.status, code, reason, wait, url.pathname.endsWith("/services/oauth2/token"));
    }
    return { statusCode: response.status, headers: Object.fromEntries(response.headers.entries()), body: text };
  }
}
