import { readBoundedBody } from "../lib/bounded-body";
import type { RequestInit, Response } from "undici";
import { type OutboundGuard, type OutboundPurpose, OutboundRefusedError } from "../outbound/guard";
import { DmsTargetError } from "./dms-target";
import { retryAfterMs } from "./vendor-http";

// One guarded call with a time-out, answers read up to a bound, and the vendor's refusals turned
// into DmsTargetError in plain words (throttling and outages retryable, the rest for someone to
// fix): what the clients that build their own requests share (SharePoint Online through Microsoft
// Graph, SharePoint Server, ProLaw, Litify's transport). Clients of a plain REST API use
// vendor-http.ts, which builds on the same reading of refusals.

/** Largest JSON answer read; folder listings come in pages far below it. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The hosts one credential may reach: the vendor's own and the operator's switch. */
export function hostsPurpose(name: string, hosts: Iterable<string>): OutboundPurpose {
  const allowed = new Set([...hosts].map((host) => host.replace(/^\[|\]$/g, "").toLowerCase()));
  return { name, hostAllowed: (host) => allowed.has(host) };
}

export interface CallOptions {
  guard: OutboundGuard;
  purpose: OutboundPurpose;
  timeoutMs: number;
  kind: string;
}

/** One call through the guard; a refused host is permanent, a time-out or a dropped connection retryable. */
export async function guardedFetch(options: CallOptions, url: URL, init: Omit<RequestInit, "redirect" | "dispatcher" | "signal"> = {}): Promise<Response> {
  try {
    return await options.guard.fetch(url, options.purpose, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new DmsTargetError(options.kind, error.message, false, { cause: error });
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw new DmsTargetError(options.kind, `${url.host} did not answer within ${Math.round(options.timeoutMs / 1000)} s`, true, { cause: error });
    }
    throw new DmsTargetError(options.kind, `${url.host} could not be reached`, true, { cause: error });
  }
}

/** The answer's bytes, refused past `max` without reading the rest. */
export async function boundedBytes(response: Response, kind: string, max = MAX_ANSWER_BYTES): Promise<Buffer> {
  return readBoundedBody(
    response,
    max,
    () => new DmsTargetError(kind, `The answer from ${new URL(response.url || "http://unknown").host} is larger than ${max} bytes`, false),
  );
}

export async function boundedJson<T>(response: Response, kind: string): Promise<T> {
  const text = (await boundedBytes(response, kind)).toString("utf8");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new DmsTargetError(kind, `The answer from ${new URL(response.url || "http://unknown").host} is not JSON`, false);
  }
}

// Retry-After as every vendor client reads it.
export { retryAfterMs };

/** The vendor's reason in an error body: Graph's {error:{message}}, SharePoint REST's {error:{message:{value}}} or OAuth's error_description. */
export function vendorReason(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      error?: string | { code?: string; message?: string | { value?: string } };
      error_description?: string;
      "odata.error"?: { message?: { value?: string } };
    };
    if (parsed.error_description) return parsed.error_description.split(/\r?\n/)[0] ?? "";
    const odata = parsed["odata.error"]?.message?.value;
    if (odata) return odata;
    const error = parsed.error;
    if (typeof error === "string") return error;
    if (error) return (typeof error.message === "string" ? error.message : error.message?.value) ?? error.code ?? "";
  } catch {
    // not JSON: the text itself, shortened below
  }
  return body.replace(/\s+/g, " ").trim().slice(0, 300);
}

/**
 * A vendor answer that is not a success as a DmsTargetError: 429 and 5xx retryable (with the
 * Retry-After the vendor asked for), anything else permanent, with the vendor's reason.
 */
export async function refusal(response: Response, kind: string, vendor: string, action: string, now: number): Promise<DmsTargetError> {
  return refusalOf(response, await errorBody(response, kind), kind, vendor, action, now);
}

/** The body of an answer that is not a success, for its reason (bounded; empty when unreadable). */
export async function errorBody(response: Response, kind: string): Promise<string> {
  return (await boundedBytes(response, kind, 64 * 1024).catch(() => Buffer.alloc(0))).toString("utf8");
}

/** As `refusal`, for an answer whose body the caller has read already. */
export function refusalOf(response: Response, body: string, kind: string, vendor: string, action: string, now: number): DmsTargetError {
  const reason = vendorReason(body) || `HTTP ${response.status}`;
  const retryable = response.status === 429 || response.status >= 500;
  const text = retryable ? `${vendor} is busy or unavailable (${response.status}) ${action}: ${reason}` : `${vendor} refused ${action}: ${reason}`;
  return new DmsTargetError(kind, text, retryable, { retryAfterMs: retryAfterMs(response.headers.get("retry-after"), now) });
}
