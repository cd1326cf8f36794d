import { readBoundedBody } from "../../lib/bounded-body";
import type { BodyInit, Response } from "undici";
import { type OutboundPurpose, OutboundRefusedError } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import type { VendorContext } from "../vendor-target";

// One call to an iManage server through the product's outbound guard: a time-out on every call,
// answers read up to a bound, and every failure turned into a DmsTargetError that says whether
// another attempt may succeed (throttling, a server error, a time-out) or someone must act first.

/** Largest answer read from iManage (a page of documents or folders is far smaller): anything longer is refused. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Where one credential's calls go and what they may reach. */
export interface IManageConnection {
  kind: string;
  /** The server's origin: calls go to `<origin>/auth/oauth2/token`, `<origin>/api`, `<origin>/work/api/v2/…`. */
  base: URL;
  purpose: OutboundPurpose;
  ctx: VendorContext;
}

export interface IManageRequest {
  method?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: BodyInit;
}

/** The URL of a path on the connection's server, with its query. */
export function endpoint(connection: IManageConnection, path: string, query: Record<string, string | number> = {}): URL {
  const url = new URL(path, connection.base.origin);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
  return url;
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** Sends one request; what cannot be reached now is worth a retry, what the guard refuses is not. */
export async function send(connection: IManageConnection, path: string, request: IManageRequest = {}): Promise<Response> {
  const { kind, ctx } = connection;
  const url = endpoint(connection, path, request.query);
  try {
    return await ctx.guard.fetch(url, connection.purpose, {
      method: request.method ?? "GET",
      headers: { accept: "application/json", ...request.headers },
      body: request.body,
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new DmsTargetError(kind, `iManage may not be reached at ${url.host}: ${error.message}`, false, { cause: error });
    if (isTimeout(error)) throw new DmsTargetError(kind, `iManage did not answer within ${Math.ceil(ctx.timeoutMs / 1000)} s`, true, { cause: error });
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new DmsTargetError(kind, `iManage could not be reached at ${url.host}: ${cause}`, true, { cause: error });
  }
}

/** The answer's bytes, refused past MAX_ANSWER_BYTES without reading the rest. */
async function boundedText(kind: string, response: Response): Promise<string> {
  const tooLarge = () => new DmsTargetError(kind, `iManage sent an answer larger than ${MAX_ANSWER_BYTES} bytes`, false);
  try {
    return (await readBoundedBody(response, MAX_ANSWER_BYTES, tooLarge)).toString("utf8");
  } catch (error) {
    if (error instanceof DmsTargetError) throw error;
    if (isTimeout(error)) throw new DmsTargetError(kind, "iManage stopped answering part way", true, { cause: error });
    throw new DmsTargetError(kind, "iManage's answer was cut short", true, { cause: error });
  }
}

/** A successful answer's JSON. */
export async function readJson(kind: string, response: Response): Promise<unknown> {
  const text = await boundedText(kind, response);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DmsTargetError(kind, "iManage sent an answer that is not JSON", false);
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** iManage's own words for a refusal: `{"error": {"code_message": …}}` from the Work API, `{"error_description": …}` from sign-in. */
export function vendorReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as { error?: unknown; error_description?: unknown; message?: unknown };
  if (typeof answer.error === "object" && answer.error !== null) {
    const error = answer.error as { code_message?: unknown; message?: unknown; code?: unknown };
    return text(error.code_message) ?? text(error.message) ?? text(error.code);
  }
  return text(answer.error_description) ?? text(answer.message) ?? text(answer.error);
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const when = Date.parse(value);
  return Number.isNaN(when) ? undefined : Math.max(0, when - now);
}

/** The reason in a refusal's body, read within the bound; none when the body is not iManage's JSON. */
export async function refusalReason(kind: string, response: Response): Promise<string | undefined> {
  try {
    return vendorReason(JSON.parse(await boundedText(kind, response)));
  } catch {
    return undefined;
  }
}

/**
 * A refused call as a DmsTargetError: 429 and 5xx are worth another try (429 with the wait iManage
 * asked for), anything else needs the firm or the operator to act. `action` names what was
 * refused in plain words ("the upload"); `prefix` replaces the sentence's start (sign-in's own wording).
 */
export async function refusal(connection: IManageConnection, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
  const { kind, ctx } = connection;
  const { status } = response;
  const reason = await refusalReason(kind, response);
  const detail = reason ?? `HTTP ${status}`;
  if (status === 429) {
    const wait = retryAfterMs(response.headers.get("retry-after"), ctx.now());
    return new DmsTargetError(kind, `${prefix ?? `iManage is throttling ${action}`}: ${detail}`, true, { retryAfterMs: wait });
  }
  if (status >= 500) return new DmsTargetError(kind, `${prefix ?? `iManage failed ${action}`}: ${detail} (HTTP ${status})`, true);
  return new DmsTargetError(kind, `${prefix ?? `iManage refused ${action}`}: ${detail}`, false);
}
