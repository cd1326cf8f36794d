import type { Response } from "undici";
import type { OutboundPurpose } from "../../outbound/guard";
import type { DmsTargetError } from "../dms-target";
import { type Schema, type VendorHttp, textOf, vendorHttp } from "../vendor-http";
import type { VendorContext } from "../vendor-target";

// What both SharePoint APIs (Graph and SharePoint REST) offer the library code: send a request
// through the vendors' one HTTP layer (vendor-http.ts; signing in again once when the token is
// refused), and read its answer as JSON parsed by the zod schema of what the caller reads, as
// "not there" or as a DmsTargetError in the vendor's words. An answer off its schema is a
// permanent failure that says what was missing.

/** Largest JSON answer read; folder listings come in pages far below it. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface ApiRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below the API's base. */
  path: string;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** What the call does, for messages: "the upload of …", "creating folder …". */
  action: string;
}

/** The vendor's reason in an error body: Graph's {error:{message}}, SharePoint REST's {error:{message:{value}}} or odata.error, OAuth's error_description. */
export function sharePointReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as { error?: unknown; error_description?: unknown; "odata.error"?: { message?: { value?: unknown } } };
  const description = textOf(answer.error_description);
  if (description) return description.split(/\r?\n/)[0];
  const odata = textOf(answer["odata.error"]?.message?.value);
  if (odata) return odata;
  if (typeof answer.error === "string") return textOf(answer.error);
  const error = answer.error as { code?: unknown; message?: unknown } | undefined;
  if (typeof error?.message === "object" && error.message !== null) return textOf((error.message as { value?: unknown }).value) ?? textOf(error.code);
  return textOf(error?.message) ?? textOf(error?.code);
}

/** How one credential's calls travel: the layer under its kind, the context, the hosts it may reach. */
export interface SharePointWire {
  http: VendorHttp;
  ctx: VendorContext;
  purpose: OutboundPurpose;
}

export function sharePointWire(kind: string, ctx: VendorContext, purpose: OutboundPurpose): SharePointWire {
  return { http: vendorHttp({ kind, vendor: "SharePoint", maxAnswerBytes: MAX_ANSWER_BYTES, reasonOf: sharePointReason }), ctx, purpose };
}

export abstract class SharePointApi {
  constructor(readonly wire: SharePointWire) {}

  get kind(): string {
    return this.wire.http.kind;
  }

  /** The raw answer; only a refused token and an unreachable host throw. */
  abstract send(request: ApiRequest): Promise<Response>;

  /** The answer's JSON; any status but 2xx becomes a DmsTargetError. */
  async json<T>(request: ApiRequest, schema: Schema<T>): Promise<T> {
    return this.read(await this.send(request), request.action, schema);
  }

  /** An answer already received, read as JSON when it is a success. */
  async read<T>(response: Response, action: string, schema: Schema<T>): Promise<T> {
    if (!response.ok) throw await this.refusal(response, action);
    return this.wire.http.answer(response, schema, action);
  }

  /** Fails unless the answer is a success; its body is not needed. */
  async expectOk(response: Response, action: string): Promise<void> {
    if (!response.ok) throw await this.refusal(response, action);
    await response.body?.cancel();
  }

  /** The JSON of what the request names, or null when SharePoint says it is not there. */
  async find<T>(request: ApiRequest, schema: Schema<T>): Promise<T | null> {
    const response = await this.send(request);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return this.read(response, request.action, schema);
  }

  /** A refused call in SharePoint's words: throttling and outages retryable, the rest permanent. */
  refusal(response: Response, action: string): Promise<DmsTargetError> {
    return this.wire.http.refusal(this.wire.ctx, response, action);
  }
}
