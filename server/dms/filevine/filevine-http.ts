import type { BodyInit, Response } from "undici";
import type { z } from "zod";
import { DmsTargetError } from "../dms-target";
import { type TokenSource, textOf, vendorHttp } from "../vendor-http";
import type { StoredToken, VendorContext } from "../vendor-target";
import type { FileVineHosts } from "./filevine-hosts";

// One call to FileVine through the product's outbound guard: a time-out on every call, answers
// read up to a bound, and every failure turned into a DmsTargetError that says whether another
// attempt may succeed (throttling, FileVine's own faults, a time-out) or someone must act first
// (a refused token, a missing permission, a project that is not there).

export const FILEVINE_KIND = "file_vine_credential";
/** Largest answer read from FileVine: a page of 1000 documents or folders stays well below. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface FileVineRequest {
  method?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: BodyInit;
}

export function withQuery(url: string, query: FileVineRequest["query"] = {}): URL {
  const out = new URL(url);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out.searchParams.set(key, String(value));
  return out;
}

const http = vendorHttp({ kind: FILEVINE_KIND, vendor: "FileVine", maxAnswerBytes: MAX_ANSWER_BYTES, reasonOf: (body) => vendorReason(body) });

/** Sends one request; what cannot be reached now is worth a retry, what the guard refuses is not. */
export function send(ctx: VendorContext, hosts: FileVineHosts, url: URL, request: FileVineRequest = {}): Promise<Response> {
  return http.send(ctx, hosts.purpose, url, { ...request, headers: { accept: "application/json", ...request.headers } });
}

/** A call with the session's token, renewed once after a 401 (see vendor-http.ts). */
export function authorized(tokens: TokenSource, attempt: (token: StoredToken) => Promise<Response>): Promise<Response> {
  return http.authorized(tokens, attempt);
}

/** A successful answer's JSON (null for an empty body). */
export function readJson(response: Response): Promise<unknown> {
  return http.json(response);
}

const text = textOf;

/** FileVine's own words for a refusal: the gateway's `message`/`detail`, the identity server's `error_description`. */
export function vendorReason(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as Record<string, unknown>;
  return text(answer.message) ?? text(answer.Message) ?? text(answer.detail) ?? text(answer.error_description) ?? text(answer.title) ?? text(answer.error);
}

/**
 * A refused call as a DmsTargetError: 429 (with the wait FileVine asked for) and 5xx are worth
 * another try, anything else needs the firm to act. `action` names what was refused ("the upload").
 */
export function refusal(ctx: VendorContext, response: Response, action: string): Promise<DmsTargetError> {
  return http.refusal(ctx, response, action);
}

/** FileVine's answer read through its schema (filevine-schemas.ts); an answer of another shape fails for good, naming the call. */
export function parsed<T extends z.ZodTypeAny>(schema: T, answer: unknown, action: string): z.output<T> {
  const result = schema.safeParse(answer);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? `${issue.path.join(".") || "the answer"}: ${issue.message}` : "unreadable";
  throw new DmsTargetError(FILEVINE_KIND, `FileVine answered ${action} in an unexpected form (${where})`, false);
}
