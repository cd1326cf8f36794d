import type { NextFunction, Request, Response } from "express";
import { type Logger, REQUEST_ID_HEADER, inRequestScope, isAssetPath, requestIdOf } from "../../app/common/logger";
import { redactUrl } from "../lib/redact";
import { requestLine } from "../lib/request-log";

// The console's request log, in the API's form: one line per request when the answer has gone
// out (server/lib/request-log.ts), at info, and at debug for static files and the route manifest,
// which are most of the requests and tell an operator nothing. Each request gets an id (the one a
// proxy sent, else a new one) that its calls to the API carry (app/utils/api.server.ts).

export function requestLogger(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const reqId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    const lines = log.child({ reqId });
    const asset = isAssetPath(req.path);
    res.setHeader("X-Request-Id", reqId);
    lines.debug({ method: req.method, url: redactUrl(req.originalUrl), remoteAddress: req.ip }, "request started");
    res.once("finish", () => {
      const line = requestLine(req.method, req.originalUrl, res.statusCode, Number(process.hrtime.bigint() - started) / 1e6);
      if (asset) lines.debug(line, "request");
      else if (res.statusCode >= 500) lines.error(line, "request failed");
      else lines.info(line, "request");
    });
    inRequestScope(reqId, next);
  };
}
