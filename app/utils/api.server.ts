import { REQUEST_ID_HEADER, currentRequestId, logger } from "../common/logger";
import { redactUrl } from "../common/redact";
import { noteAccessStamp } from "./access-stamps.server";
import { consoleEnv } from "./env.server";

export interface ApiErrorBody {
  message?: string;
  fieldErrors?: Record<string, string[]>;
  error?: string;
}

/** A non-2xx answer of the API, with its status and body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly path: string,
  ) {
    super(body.message ?? `API ${status} on ${path}`);
  }
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  token?: string;
  json?: unknown;
  body?: BodyInit;
  contentType?: string;
  accept?: string;
  forwardedFor?: string | null;
  /** The host the browser reached, for a call whose answer depends on it (case retrieve). */
  forwardedHost?: string;
}

const MAX_TIMEOUT_RECORDS = 100;
const timedOut: { path: string; at: number }[] = [];

/** Calls that hit the time-out, newest last (spec §9: recorded locally). */
export function timedOutCalls(): readonly { path: string; at: number }[] {
  return timedOut;
}

// Inbox paths carry large uploads and bulk operations, so they are exempt from the time-out; so
// is a file import's upload (POST /api/v1/{resource}/import; the import itself runs as a job).
const exemptFromTimeout = (path: string) => path.startsWith("/api/v1/inbox") || /^\/api\/v1\/[\w-]+\/import(\?|$)/.test(path);

async function send(path: string, init: RequestInit, timeoutMs: number | null): Promise<Response> {
  const url = `${consoleEnv().ECFX_API_URL}${path}`;
  if (timeoutMs === null) return fetch(url, init);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One call to the ECFX API: bearer token, no-cache headers, 15 s time-out. A timed-out call is
 * recorded and tried once more without a time-out.
 */
export async function apiRequest(path: string, req: ApiRequest = {}): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "no-cache", Pragma: "no-cache", Accept: req.accept ?? "application/json" });
  if (req.token) headers.set("Authorization", `Bearer ${req.token}`);
  if (req.forwardedFor) headers.set("X-Forwarded-For", req.forwardedFor);
  if (req.forwardedHost) headers.set("X-Forwarded-Host", req.forwardedHost);
  // The API logs the call under the id of the console request that made it.
  const reqId = currentRequestId();
  if (reqId) headers.set(REQUEST_ID_HEADER, reqId);
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers.set("Content-Type", "application/json");
  } else if (req.contentType) {
    headers.set("Content-Type", req.contentType);
  }
  // The API's own redirects (a document kept in a vendor DMS) are for the browser, never followed here.
  const init: RequestInit = { method: req.method ?? "GET", headers, body, redirect: "manual" };
  const timeout = exemptFromTimeout(path) ? null : consoleEnv().ECFX_API_TIMEOUT_MS;
  const response = await sendOnce(path, init, timeout);
  if (req.token) noteAccessStamp(req.token, response);
  return response;
}

async function sendOnce(path: string, init: RequestInit, timeout: number | null): Promise<Response> {
  try {
    return await send(path, init, timeout);
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") {
      timedOut.push({ path, at: Date.now() });
      if (timedOut.length > MAX_TIMEOUT_RECORDS) timedOut.shift();
      logger("console").warn({ method: init.method, url: redactUrl(path), timeoutMs: timeout, reqId: currentRequestId() }, "API call timed out, retrying once");
      return send(path, init, null);
    }
    throw new ApiError(503, { message: "errors:apiUnavailable" }, path);
  }
}

export async function errorOf(response: Response, path: string): Promise<ApiError> {
  let body: ApiErrorBody = {};
  try {
    body = (await response.json()) as ApiErrorBody;
  } catch {
    body = { message: response.statusText };
  }
  if (response.status >= 500)
    logger("console").error({ status: response.status, url: redactUrl(path), apiMessage: body.message ?? "", reqId: currentRequestId() }, "API call failed");
  return new ApiError(response.status, body, path);
}

export async function apiJson<T>(path: string, req: ApiRequest = {}): Promise<{ data: T; response: Response }> {
  const response = await apiRequest(path, req);
  if (!response.ok) throw await errorOf(response, path);
  const data = response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  return { data, response };
}
