import type { BodyInit, Response } from "undici";
import type { OutboundPurpose } from "../../outbound/guard";
import type { DmsTargetError } from "../dms-target";
import { type Schema, type TokenSource, textOf, vendorHttp } from "../vendor-http";
import type { StoredToken, VendorContext } from "../vendor-target";

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

const http = new Map<string, ReturnType<typeof vendorHttp>>();
/** The shared HTTP plumbing for one iManage credential kind (failures are reported under it). */
function httpOf(kind: string) {
  let found = http.get(kind);
  if (!found) http.set(kind, (found = vendorHttp({ kind, vendor: "iManage", maxAnswerBytes: MAX_ANSWER_BYTES, reasonOf: vendorReason })));
  return found;
}

/** Sends one request; what cannot be reached now is worth a retry, what the guard refuses is not. */
export function send(connection: IManageConnection, path: string, request: IManageRequest = {}): Promise<Response> {
  const url = endpoint(connection, path, request.query);
  return httpOf(connection.kind).send(connection.ctx, connection.purpose, url, { ...request, headers: { accept: "application/json", ...request.headers } });
}

/** A call with the session's token, renewed once after a 401 (see vendor-http.ts). */
export function authorized(connection: IManageConnection, tokens: TokenSource, attempt: (token: StoredToken) => Promise<Response>): Promise<Response> {
  return httpOf(connection.kind).authorized(tokens, attempt);
}

/** A successful answer's JSON parsed by `schema`; another shape is a permanent failure naming what is wrong. */
export function readAnswer<T>(kind: string, response: Response, schema: Schema<T>, action: string): Promise<T> {
  return httpOf(kind).answer(response, schema, action);
}

/** iManage's own words for a refusal: `{"error": {"code_message": …}}` from the Work API, `{"error_description": …}` from sign-in. */
export function vendorReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as { error?: unknown; error_description?: unknown; message?: unknown };
  if (typeof answer.error === "object" && answer.error !== null) {
    const error = answer.error as { code_message?: unknown; message?: unknown; code?: unknown };
    return textOf(error.code_message) ?? textOf(error.message) ?? textOf(error.code);
  }
  return textOf(answer.error_description) ?? textOf(answer.message) ?? textOf(answer.error);
}

/** The reason in a refusal's body, read within the bound; none when the body is not iManage's JSON. */
export function refusalReason(kind: string, response: Response): Promise<string | undefined> {
  return httpOf(kind).reasonIn(response);
}

/**
 * A refused call as a DmsTargetError: 429 and 5xx are worth another try (429 with the wait iManage
 * asked for), anything else needs the firm or the operator to act. `action` names what was
 * refused in plain words ("the upload"); `prefix` replaces the sentence's start (sign-in's own wording).
 */
export function refusal(connection: IManageConnection, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
  return httpOf(connection.kind).refusal(connection.ctx, response, action, prefix);
}
