import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { splitMessageKey } from "../../app/common/validation";
import { message } from "./messages";

export type FieldErrors = Record<string, string[]>;

/** An error with the HTTP status and catalogue message the caller should see. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, message("errors:unauthorized"));
export const forbidden = () => new HttpError(403, message("errors:forbidden"));
export const notFound = () => new HttpError(404, message("errors:notFound"));
export const conflict = (text = message("errors:conflict")) => new HttpError(409, text);
export const invalid = (fieldErrors: FieldErrors, text = message("errors:invalidRequest")) => new HttpError(400, text, fieldErrors);

/** Validators speak in catalogue keys; callers of the API get the sentences. */
export function catalogueMessage(text: string): string {
  if (!text.startsWith("errors:")) return text;
  const { key, values } = splitMessageKey(text);
  return message(key, values);
}

export function fieldErrorsOf(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_form";
    (out[key] ??= []).push(catalogueMessage(issue.message));
  }
  return out;
}

/** Unique-constraint violations of either database, so a clash becomes a 409, never a 500. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * PostgreSQL's data exceptions (class 22: a NUL character in text, a number out of range)
 * come from a value the request carried, where SQLite would simply find nothing or store it.
 */
export function isInvalidValue(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown };
  return typeof e?.code === "string" && e.code.startsWith("22") && typeof e.severity === "string";
}

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    if (error.headers) void reply.headers(error.headers);
    const fieldErrors = error.fieldErrors ? Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.map(catalogueMessage)])) : undefined;
    return reply.status(error.status).send({ message: error.message, fieldErrors });
  }
  if (error instanceof ZodError) {
    return reply.status(400).send({ message: message("errors:invalidRequest"), fieldErrors: fieldErrorsOf(error) });
  }
  if (isUniqueViolation(error)) {
    return reply.status(409).send({ message: message("errors:conflict") });
  }
  if (isInvalidValue(error)) {
    return reply.status(400).send({ message: message("errors:invalidRequest") });
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
    return reply.status(status).send({ message: error.message });
  }
  request.log.error({ err: error }, "request failed");
  return reply.status(500).send({ message: message("errors:internal") });
}
