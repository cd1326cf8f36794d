import { textOf } from "../vendor-http";

// How NetDocuments says what went wrong. Refusals become DmsTargetErrors in the vendors' one HTTP
// layer (vendor-http.ts): throttling (429, with the wait it asked for), its own failures (5xx)
// and time-outs are worth another attempt; a refusal (400, 401 after a fresh token, 403, 404)
// needs someone to change the credential or the policy.

/** NetDocuments' reason in an error body: its error_description, message or error. */
export function netDocumentsReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  return textOf(fields.error_description) ?? textOf(fields.message) ?? textOf(fields.Message) ?? textOf(fields.error);
}
