import { readBoundedBody } from "../../lib/bounded-body";
import type { Response } from "undici";
import { OutboundRefusedError } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import { retryAfterMs } from "../vendor-http";

// How NetDocuments' answers and failures become DmsTargetErrors: throttling (429, with the wait
// it asked for), its own failures (5xx) and time-outs are worth another attempt; a refusal
// (400, 401 after a fresh token, 403, 404) needs someone to change the credential or the policy.

/** Longest error body read for the vendor's reason. */
const MAX_REASON_BYTES = 16 * 1024;

// Retry-After as every vendor client reads it.
export { retryAfterMs };

/** The body, refused past `max` bytes without reading the rest. */
export async function readBounded(kind: string, response: Response, max: number): Promise<Buffer> {
  return readBoundedBody(response, max, () => new DmsTargetError(kind, `NetDocuments answered with more than ${max} bytes`, false));
}

/** What NetDocuments said went wrong: its error_description, message or error, else the status. */
export async function vendorReason(response: Response): Promise<string> {
  let text = "";
  try {
    text = (await readBounded("", response, MAX_REASON_BYTES)).toString("utf8").trim();
  } catch {
    // An error body too long to read still has its status.
  }
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ["error_description", "message", "Message", "error"]) {
      const value = body[key];
      if (typeof value === "string" && value.trim()) return value.trim();
    }
  } catch {
    if (text && text.length <= 300 && !text.startsWith("<")) return text;
  }
  return `HTTP ${response.status}`;
}

/** The error for a refused answer; `action` says what was refused in plain words ("the upload"). */
export async function refusal(kind: string, action: string, response: Response, now: number): Promise<DmsTargetError> {
  const reason = await vendorReason(response);
  if (response.status === 429) {
    const wait = retryAfterMs(response.headers.get("retry-after"), now);
    return new DmsTargetError(kind, `NetDocuments is throttling ${action}: ${reason}`, true, wait === undefined ? {} : { retryAfterMs: wait });
  }
  if (response.status >= 500) return new DmsTargetError(kind, `NetDocuments failed ${action}: ${reason}`, true);
  return new DmsTargetError(kind, `NetDocuments refused ${action}: ${reason}`, false);
}

/** The error for a call that got no answer: refused by the guard (final), timed out or unreachable (worth a retry). */
export function unanswered(kind: string, error: unknown, timeoutMs: number, prefix = ""): DmsTargetError {
  if (error instanceof DmsTargetError) return error;
  if (error instanceof OutboundRefusedError) return new DmsTargetError(kind, `${prefix}${error.message}`, false, { cause: error });
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new DmsTargetError(kind, `${prefix}NetDocuments did not answer within ${Math.ceil(timeoutMs / 1000)} s`, true, { cause: error });
  }
  const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return new DmsTargetError(kind, `${prefix}NetDocuments could not be reached: ${detail}`, true, { cause: error });
}
