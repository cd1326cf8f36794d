import type { FastifyReply, FastifyRequest } from "fastify";
import protobuf from "protobufjs";
import { decodeMessage, encodeMessage } from "../../proto/codec.server";
import { message as text } from "../lib/messages";
import { HttpError } from "../lib/errors";

export const PROTOBUF = "application/x-protobuf";

export function wantsProtobuf(request: FastifyRequest): boolean {
  return (request.headers.accept ?? "").includes(PROTOBUF);
}

export function isProtobufBody(request: FastifyRequest): boolean {
  return (request.headers["content-type"] ?? "").startsWith(PROTOBUF);
}

// protobufjs names fields in camelCase, while records and JSON bodies here use the .proto's
// snake_case; these bridge the two so no field is silently dropped.
const camel = (key: string) => protobuf.util.camelCase(key);
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function renameKeys(value: Record<string, unknown>, rename: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), isPlainObject(v) ? renameKeys(v, rename) : v]));
}

/**
 * A body that may come as JSON or as the named protobuf message. A protobuf body comes back
 * with the key style of the route's JSON body; bytes that are not the message are a 400.
 */
export function readBody(request: FastifyRequest, message: Parameters<typeof decodeMessage>[0], keys: "camel" | "snake" = "camel"): unknown {
  if (isProtobufBody(request)) {
    if (!Buffer.isBuffer(request.body)) return {};
    let decoded: Record<string, unknown>;
    try {
      decoded = decodeMessage(message, request.body);
    } catch {
      throw new HttpError(400, text("errors:invalidRequest"));
    }
    return keys === "snake" ? renameKeys(decoded, snake) : decoded;
  }
  return request.body ?? {};
}

/** Sends a value, keyed in either style, as the named protobuf message. */
export function sendProtobuf(reply: FastifyReply, message: Parameters<typeof encodeMessage>[0], value: Record<string, unknown>) {
  return reply.type(PROTOBUF).send(Buffer.from(encodeMessage(message, renameKeys(value, camel))));
}
