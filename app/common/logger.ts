// The product's one logger, for every process (API, console, worker, SMTP listener): pino,
// one JSON object a line with an ISO time, or pino-pretty's readable lines where a person reads
// them (`npm start` sets ECFX_LOG_FORMAT=pretty; the container logs JSON). Secrets never reach a
// line: URLs lose their tokens and codes (redact.ts), and fields named like a credential, headers
// that carry one included, are replaced. Errors are objects (`err`: type, message, stack).
// Each request has an id (X-Request-Id) that follows it from the console to the API.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";
import { REDACTED } from "./redact";

export type { Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = "json" | "pretty";

/** The header that carries a request's id from the console (or a proxy in front) to the API. */
export const REQUEST_ID_HEADER = "x-request-id";

// Fields that may hold a credential, wherever a line carries them (one level down included).
const SECRET_FIELDS = ["password", "token", "access_token", "refresh_token", "id_token", "client_secret", "secret", "code", "state", "authorization", "cookie"];
const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...["headers", "req.headers", "res.headers"].flatMap((h) => [`${h}.authorization`, `${h}.cookie`, `${h}["set-cookie"]`, `${h}["x-api-key"]`]),
];

const isLevel = (value: string | undefined): value is LogLevel => LOG_LEVELS.includes(value as LogLevel);

/** ECFX_LOG_LEVEL, else LOG_LEVEL (its earlier name), else info. */
export function logLevelOf(env: Record<string, string | undefined> = process.env): LogLevel {
  const value = env.ECFX_LOG_LEVEL ?? env.LOG_LEVEL;
  return isLevel(value) ? value : "info";
}

/** ECFX_LOG_FORMAT: json unless it says pretty. */
export function logFormatOf(env: Record<string, string | undefined> = process.env): LogFormat {
  return env.ECFX_LOG_FORMAT === "pretty" ? "pretty" : "json";
}

export interface LoggerSettings {
  level?: LogLevel;
  format?: LogFormat;
  /** Where the lines go (tests); standard output otherwise. */
  stream?: DestinationStream;
}

/** A logger with the product's settings: the environment's unless told otherwise. */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const level = settings.level ?? logLevelOf();
  const options: LoggerOptions = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
  if (settings.stream) return pino(options, settings.stream);
  if ((settings.format ?? logFormatOf()) === "pretty") {
    // In this process, written as it comes: a worker thread would cost a core on a small machine.
    return pino(options, pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }));
  }
  return pino(options);
}

let root: Logger | undefined;

/** This process's logger, or one part's (`component` on each of its lines). */
export function logger(component?: string): Logger {
  root ??= createLogger();
  return component ? root.child({ component }) : root;
}

const requestScope = new AsyncLocalStorage<{ reqId: string }>();

// An id a proxy or the console sent is kept when it looks like one; anything else gets a new one.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** The id a request is logged under: the one it came with when well-formed, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

/** Runs `fn` as part of request `reqId`: the console's calls to the API made inside it carry the id. */
export function inRequestScope<T>(reqId: string, fn: () => T): T {
  return requestScope.run({ reqId }, fn);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.reqId;
}

/** Static files and the route manifest: many per page and of no use at info (logged at debug). */
export function isAssetPath(path: string): boolean {
  return (
    path.startsWith("/build/") ||
    path.startsWith("/assets/") ||
    path.startsWith("/monaco/") ||
    path.startsWith("/__manifest") ||
    /^\/[^/]+\.(?:ico|png|svg|txt|css|js|map|woff2?)$/.test(path)
  );
}
