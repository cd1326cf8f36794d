import type { BodyInit, Response } from "undici";
import { readBoundedBody } from "../../lib/bounded-body";
import { type OutboundPurpose, OutboundRefusedError } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import { retryAfterMs } from "../imanage/imanage-http";
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

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** Sends one request to `url` (a path on the Clio host, or an absolute upload URL). */
export async function send(connection: ClioConnection, url: string | URL, request: ClioRequest = {}): Promise<Response> {
  const { ctx } = connection;
  const target = new URL(url, connection.base.origin);
  for (const [key, value] of Object.entries(request.query ?? {})) target.searchParams.set(key, String(value));
  try {
    return await ctx.guard.fetch(target, connection.purpose, {
      method: request.method ?? "GET",
      headers: request.headers ?? {},
      body: request.body,
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new DmsTargetError(CLIO_KIND, `Clio may not be reached at ${target.host}: ${error.message}`, false, { cause: error });
    if (isTimeout(error)) throw new DmsTargetError(CLIO_KIND, `Clio did not answer within ${Math.ceil(ctx.timeoutMs / 1000)} s`, true, { cause: error });
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new DmsTargetError(CLIO_KIND, `Clio could not be reached at ${target.host}: ${cause}`, true, { cause: error });
  }
}

async function boundedText(response: Response): Promise<string> {
  const tooLarge = () => new DmsTargetError(CLIO_KIND, `Clio sent an answer larger than ${MAX_CLIO_ANSWER_BYTES} bytes`, false);
  try {
    return (await readBoundedBody(response, MAX_CLIO_ANSWER_BYTES, tooLarge)).toString("utf8");
  } catch (error) {
    if (error instanceof DmsTargetError) throw error;
    throw new DmsTargetError(CLIO_KIND, "Clio's answer was cut short", true, { cause: error });
  }
}

/** A successful answer's JSON (an empty body reads as null). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await boundedText(response);
  if (!text.trim()) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DmsTargetError(CLIO_KIND, "Clio sent an answer that is not JSON", false);
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

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
export async function refusal(connection: ClioConnection, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
  const { status } = response;
  let reason: string | undefined;
  try {
    reason = clioReason(JSON.parse(await boundedText(response)));
  } catch {
    reason = undefined;
  }
  const detail = reason ?? `HTTP ${status}`;
  if (status === 429) {
    const wait = retryAfterMs(response.headers.get("retry-after"), connection.ctx.now());
    return new DmsTargetError(CLIO_KIND, `${prefix ?? `Clio is throttling ${action}`}: ${detail}`, true, { retryAfterMs: wait });
  }
  if (status >= 500) return new DmsTargetError(CLIO_KIND, `${prefix ?? `Clio failed ${action}`}: ${detail} (HTTP ${status})`, true);
  return new DmsTargetError(CLIO_KIND, `${prefix ?? `Clio refused ${action}`}: ${detail}`, false);
}
