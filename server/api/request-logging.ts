import type { Writable } from "node:stream";
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import { redactUrl } from "../lib/redact";
import { loggedRoute, requestLine } from "../lib/request-log";

// The API's log: Fastify's own two lines per request (incoming, completed) become one line at
// info when the answer has gone out (server/lib/request-log.ts says what it holds).

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export function loggerOptions(level: LogLevel, stream?: Writable): FastifyServerOptions["logger"] {
  if (level === "silent" && !stream) return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    // Document links and reset links carry their token in the URL: never in the log.
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
    },
  };
}

/** Fastify's request lines, one per request: the start at debug, the answer at info (error when it failed). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, "request started");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = requestLine(request.method, loggedRoute(request.routeOptions.url, request.url), reply.statusCode, reply.elapsedTime);
    if (error) reply.log.error({ ...line, err: error }, "request failed");
    else reply.log.info(line, "request");
  }
}
