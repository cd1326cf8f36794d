import type { IncomingMessage } from "node:http";
import type { Writable } from "node:stream";
import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { type LogLevel, type Logger, REQUEST_ID_HEADER, createLogger, logger, requestIdOf } from "../../app/common/logger";
import { redactUrl } from "../lib/redact";
import { requestLine } from "../lib/request-log";

// The API's log: the product's logger (app/common/logger.ts), and Fastify's own two lines
// per request (incoming, completed) become one line at info when the answer has gone out.

/** The API's logger: the process's, or one writing to `stream` (tests). */
export function apiLogger(level: LogLevel, stream?: Writable): Logger {
  return (stream ? createLogger({ level, stream }) : logger()).child({ component: "api" }, { level });
}

/** A request's id: the console's (or a proxy's) X-Request-Id, so its lines and the console's share it. */
export function apiRequestId(request: IncomingMessage): string {
  return requestIdOf(request.headers[REQUEST_ID_HEADER]);
}

/** Fastify's request lines, one per request: the start at debug, the answer at info (error when it failed). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }, "request started");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = requestLine(request.method, request.url, reply.statusCode, reply.elapsedTime, request.routeOptions.url);
    if (error) reply.log.error({ ...line, err: error }, "request failed");
    else reply.log.info(line, "request");
  }
}
