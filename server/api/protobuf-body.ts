import type { FastifyReply, FastifyRequest } from "fastify";
import { decodeMessage, encodeMessage } from "../../app/utils/proto.server";

export const PROTOBUF = "application/x-protobuf";

export function wantsProtobuf(request: FastifyRequest): boolean {
  return (request.headers.accept ?? "").includes(PROTOBUF);
}

export function isProtobufBody(request: FastifyRequest): boolean {
  return (request.headers["content-type"] ?? "").startsWith(PROTOBUF);
}

/** A body that may come as JSON or as the named protobuf message. */
export function readBody(request: FastifyRequest, message: Parameters<typeof decodeMessage>[0]): unknown {
  if (isProtobufBody(request)) {
    if (!Buffer.isBuffer(request.body)) return {};
    return decodeMessage(message, request.body);
  }
  return request.body ?? {};
}

export function sendProtobuf(reply: FastifyReply, message: Parameters<typeof encodeMessage>[0], value: Record<string, unknown>) {
  return reply.type(PROTOBUF).send(Buffer.from(encodeMessage(message, value)));
}
