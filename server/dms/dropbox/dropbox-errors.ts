import { DmsTargetError } from "../dms-target";
import { retryAfterMs as headerRetryAfterMs } from "../vendor-http";

// What Dropbox answered, in the words the storage step and the firm's IT read. Dropbox's error
// bodies carry an `error_summary` ("path/conflict/file/..") that names the cause; it is repeated
// so whoever fixes the credential knows what Dropbox objected to.

export const DROPBOX_KIND = "dropbox_credential";

/** A refusal with Dropbox's HTTP status and summary, for callers that expect some (a folder that exists, a name that is taken). */
export class DropboxRefusal extends DmsTargetError {
  constructor(
    readonly status: number,
    readonly summary: string,
    message: string,
    retryable: boolean,
    options?: { retryAfterMs?: number },
  ) {
    super(DROPBOX_KIND, message, retryable, options);
    this.name = "DropboxRefusal";
  }
}

/** Longest part of Dropbox's own words repeated in a message. */
const MAX_REASON = 300;

/** Dropbox's reason: the error_summary of a JSON error, else the text of the answer (400s are plain text). */
export function dropboxReason(body: unknown): string {
  if (body && typeof body === "object") {
    const { error_summary: summary, error_description: description, error } = body as Record<string, unknown>;
    const reason = [summary, description, error].find((value) => typeof value === "string" && value.trim());
    if (typeof reason === "string") return reason.trim().slice(0, MAX_REASON);
    return JSON.stringify(body).slice(0, MAX_REASON);
  }
  return String(body ?? "")
    .trim()
    .slice(0, MAX_REASON);
}

/** Milliseconds a Retry-After header (read as every vendor's is) or, failing that, a body's `retry_after` asks for. */
export function retryAfterMs(header: string | null, body: unknown, now: number): number | undefined {
  const fromHeader = headerRetryAfterMs(header, now);
  if (fromHeader !== undefined) return fromHeader;
  const inBody = (body as { error?: { retry_after?: unknown } } | null)?.error?.retry_after;
  return typeof inBody === "number" && inBody >= 0 ? inBody * 1000 : undefined;
}

/** Summaries of refusals Dropbox itself says to try again later. */
const BUSY_SUMMARIES = /too_many_write_operations|too_many_files|internal_error|operation_suppressed/;

/** A refused call as DmsTargetError: 429 and 5xx (and Dropbox's own "busy" answers) may pass, anything else needs someone. */
export function dropboxRefusal(action: string, status: number, body: unknown, retryAfterHeader: string | null, now: number): DropboxRefusal {
  const reason = dropboxReason(body);
  const summary = typeof (body as { error_summary?: unknown } | null)?.error_summary === "string" ? (body as { error_summary: string }).error_summary : "";
  if (status === 429) {
    return new DropboxRefusal(status, summary, `Dropbox asked to slow down during ${action}: ${reason || "too many requests"}`, true, {
      retryAfterMs: retryAfterMs(retryAfterHeader, body, now),
    });
  }
  if (status >= 500) return new DropboxRefusal(status, summary, `Dropbox could not complete ${action} (status ${status})${reason ? `: ${reason}` : ""}`, true);
  return new DropboxRefusal(status, summary, `Dropbox refused ${action}: ${reason || `status ${status}`}`, BUSY_SUMMARIES.test(summary));
}
