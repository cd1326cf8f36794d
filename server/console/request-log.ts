import type { NextFunction, Request, Response } from "express";
import { redactUrl } from "../lib/redact";
import { loggedRoute, requestLine } from "../lib/request-log";

// The console's request log, in the API's form: one JSON line per request at info when the
// answer has gone out (server/lib/request-log.ts), the request as it starts at debug.

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
type Level = keyof typeof LEVELS;

const levelOf = (name: string | undefined): number => (name === "silent" ? Infinity : (LEVELS[name as Level] ?? LEVELS.info));

export function requestLogger(levelName: string | undefined, write: (line: string) => void = (line) => process.stdout.write(line)) {
  const threshold = levelOf(levelName);
  const log = (level: Level, fields: object, msg: string) => {
    if (LEVELS[level] >= threshold) write(`${JSON.stringify({ level: LEVELS[level], time: Date.now(), ...fields, msg })}\n`);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    log("debug", { req: { method: req.method, url: redactUrl(req.originalUrl), remoteAddress: req.ip } }, "request started");
    res.once("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log("info", requestLine(req.method, loggedRoute(undefined, req.originalUrl), res.statusCode, ms), "request");
    });
    next();
  };
}
