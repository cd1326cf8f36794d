import type { BodyInit, Response } from "undici";
import type { OutboundPurpose } from "../../outbound/guard";
import type { DmsTargetError } from "../dms-target";
import { textOf, vendorHttp } from "../vendor-http";
import type { VendorContext } from "../vendor-target";
import { CLIO_KIND } from "./clio-hosts";

// One call to Clio through the product's outbound guard: a time-out on every call, answers read
// up to a bound, and every failure turned into a DmsTargetError that says whether another
// attempt may succeed (429 with Clio's Retry-After, 5xx, a time-out) or someone must act first
// (any other refusal, with Clio's own reason).

/** Largest answer read from Clio: a page of 200 matters or documents is far smaller. */
export const MAX_CLIO_ANSWER_BYTES = 2 * 1024 * 1024;

export interface ClioConnection {
  /** The region's origin (or the operator's switch). */
  base: URL;
  purpose: OutboundPurpose;
  ctx: VendorContext;
}

export interface ClioRequest {
  method?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: BodyInit;
}

/** The vendors' one HTTP layer as Clio's calls use it. */
export const clioHttp = vendorHttp({ kind: CLIO_KIND, vendor: "Clio", maxAnswerBytes: MAX_CLIO_ANSWER_BYTES, reasonOf: (body) => clioReason(body) });

/** Sends one request to `url` (a path on the Clio host, or an absolute upload URL). */
export function send(connection: ClioConnection, url: string | URL, request: ClioRequest = {}): Promise<Response> {
  const target = new URL(url, connection.base.origin);
  for (const [key, value] of Object.entries(request.query ?? {})) target.searchParams.set(key, String(value));
  return clioHttp.send(connection.ctx, connection.purpose, target, request);
}

/** A successful answer's JSON (an empty body reads as null). */
export function readJson(response: Response): Promise<unknown> {
  return clioHttp.json(response);
}

const text = textOf;

/** Clio's words for a refusal: `{"error": {"type", "message"}}` from the API, `{"error", "error_description"}` from OAuth. */
export function clioReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as { error?: unknown; error_description?: unknown; message?: unknown };
  if (typeof answer.error === "object" && answer.error !== null) {
    const error = answer.error as { message?: unknown; type?: unknown };
    return text(error.message) ?? text(error.type);
  }
  return text(answer.error_description) ?? text(answer.message) ?? text(answer.error);
}

/**
 * A refused call as a DmsTargetError: 429 waits as long as Clio asks, 5xx is tried again, anything
 * else needs the firm to act. `action` names what was refused ("the upload"); `prefix` replaces
 * the sentence's start (sign-in's own wording).
 */
export function refusal(connection: ClioConnection, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
  return clioHttp.refusal(connection.ctx, response, action, prefix);
}
