import { BoxSdkError } from "box-node-sdk/lib/box/errors";
import { DmsTargetError } from "../dms-target";
import { retryAfterMs } from "../vendor-http";

// How a Box answer or a failed call becomes the storage step's DmsTargetError: throttling, Box's
// own faults and time-outs may pass with another attempt; refused credentials, permissions,
// missing items and refused requests need someone to act first. Box's error body
// ({ type: "error", status, code, message }, or OAuth's { error, error_description }) gives the
// reason repeated in the message.

export const BOX_KIND = "box_client_credential_grant_credential";

/** A Box answer other than 2xx, as the network client met it. */
export class BoxCallError extends Error {
  constructor(
    readonly status: number,
    /** Box's error code ("item_name_in_use", "invalid_client", …), when it gave one. */
    readonly code: string | undefined,
    /** Box's words, or the HTTP status when it gave none. */
    readonly reason: string,
    readonly retryAfterMs: number | undefined,
    /** The call was the OAuth token grant. */
    readonly tokenGrant: boolean,
  ) {
    super(`${status} ${code ?? ""} ${reason}`.replace(/\s+/g, " ").trim());
    this.name = "BoxCallError";
  }
}

// Retry-After as every vendor client reads it.
export { retryAfterMs };

/** Box's reason from an error body of either shape. */
export function boxReason(body: unknown, status: number): { code?: string; reason: string } {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);
  const code = text(fields.code) ?? text(fields.error);
  const reason = text(fields.message) ?? text(fields.error_description) ?? code ?? `HTTP ${status}`;
  return { code, reason };
}

/** Box's 409: an item of that name is in the folder already (item_name_in_use, or a conflict of a race). */
export const nameInUse = (error: unknown): error is BoxCallError => error instanceof BoxCallError && error.status === 409;

export const notFound = (error: unknown): error is BoxCallError => error instanceof BoxCallError && error.status === 404;

/**
 * The DmsTargetError for a failure while doing `action` ("Box refused the upload", "Box refused to
 * create folder Matters"): retryable for 429, 5xx and time-outs, permanent otherwise.
 */
export function toDmsError(error: unknown, action: string): DmsTargetError {
  if (error instanceof DmsTargetError) return error;
  if (error instanceof BoxCallError) {
    if (error.tokenGrant && error.status !== 429 && error.status < 500) {
      return new DmsTargetError(BOX_KIND, `Token generation failed: ${error.reason}`, false, { cause: error });
    }
    const retryable = error.status === 429 || error.status >= 500;
    const what = retryable ? action.replace(/^Box refused/, "Box could not take") : action;
    return new DmsTargetError(BOX_KIND, `${what}: ${error.reason}`, retryable, { cause: error, retryAfterMs: error.retryAfterMs });
  }
  // The SDK's own reading of an answer ("Expecting "id" of type "FolderFull" to be defined").
  if (error instanceof BoxSdkError && error.message.startsWith("Expecting ")) {
    const asked = action.replace(/^Box refused /, "").replace(/^to /, "the request to ");
    return new DmsTargetError(BOX_KIND, `Box answered ${asked} in an unexpected shape: ${error.message}`, false, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new DmsTargetError(BOX_KIND, `${action}: ${reason}`, false, { cause: error });
}
