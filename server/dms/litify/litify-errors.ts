import { DmsTargetError } from "../dms-target";

// How a Salesforce answer becomes the storage step's DmsTargetError. Salesforce answers REST
// errors as [{ "message", "errorCode", "fields" }] and OAuth errors as { error,
// error_description }. Throttling (429, 503, REQUEST_LIMIT_EXCEEDED, which comes as a 403) and
// Salesforce's own faults are worth another attempt; any other refusal needs someone to act.

export const LITIFY_KIND = "litify_credential";

/** A Salesforce answer other than 2xx, as the transport met it. */
export class SalesforceCallError extends Error {
  constructor(
    readonly status: number,
    /** Salesforce's errorCode ("INVALID_FIELD", "INVALID_SESSION_ID") or OAuth's error ("invalid_grant"). */
    readonly code: string | undefined,
    /** Salesforce's words, or the HTTP status when it gave none. */
    readonly reason: string,
    readonly retryAfterMs: number | undefined,
    /** The call was the OAuth token request. */
    readonly tokenRequest: boolean,
  ) {
    super(`${code ? `${code}: ` : ""}${reason}`);
    this.name = "SalesforceCallError";
  }
}

/** Salesforce's reason from an error body of either shape. */
export function salesforceReason(text: string, status: number): { code?: string; reason: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { reason: text.replace(/\s+/g, " ").trim().slice(0, 300) || `HTTP ${status}` };
  }
  const first = (Array.isArray(body) ? body[0] : body) as Record<string, unknown> | undefined;
  const str = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);
  const code = str(first?.errorCode) ?? str(first?.error);
  return { code, reason: str(first?.message) ?? str(first?.error_description) ?? code ?? `HTTP ${status}` };
}

const throttled = (error: SalesforceCallError) =>
  error.status === 429 || error.status === 503 || error.code === "REQUEST_LIMIT_EXCEEDED" || error.code === "SERVER_UNAVAILABLE";

/**
 * The DmsTargetError for a failure while doing `action` ("looking up matter M-501", "filing
 * Notice.pdf"): retryable for throttling, 5xx and lost connections, permanent otherwise, and
 * 'Token generation failed' when the sign-in itself was refused.
 */
export function toDmsError(error: unknown, action: string): DmsTargetError {
  if (error instanceof DmsTargetError) return error;
  if (error instanceof SalesforceCallError) {
    const retryable = throttled(error) || error.status >= 500;
    if (error.tokenRequest && !retryable) {
      return new DmsTargetError(LITIFY_KIND, `Token generation failed: ${error.message}`, false, { cause: error });
    }
    const text = retryable
      ? `Salesforce is busy or unavailable (${error.status}) ${action}: ${error.message}`
      : `Salesforce refused ${action}: ${error.message}`;
    return new DmsTargetError(LITIFY_KIND, text, retryable, { cause: error, retryAfterMs: error.retryAfterMs });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new DmsTargetError(LITIFY_KIND, `${action}: ${reason}`, false, { cause: error });
}
