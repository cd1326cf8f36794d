import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import { buildApi } from "../../server/api/app";
import { openContext } from "../../server/bootstrap";
import { loadConfig } from "../../server/config";
import type { ServerContext } from "../../server/context";
import { type Clock, systemClock } from "../../server/lib/clock";
import { DEMO_PASSWORD, type TemplateKind, createPgDatabase, createSqliteDatabase } from "./test-databases";
import { PG_URL } from "./test-run";

export { DEMO_PASSWORD, PG_URL, createPgDatabase };

// Real API servers for the API tests: a fresh data folder and database each, a random port,
// and plain HTTP through global fetch, so every layer between socket and database is exercised.

export type Backend = "sqlite" | "postgres";

export const DEMO = {
  admin: "admin@demo.ecfx.test",
  manager: "manager@demo.ecfx.test",
  viewOnly: "viewonly@demo.ecfx.test",
  docketing: "docketing@demo.ecfx.test",
  secondAdmin: "admin@second.ecfx.test",
} as const;

export const backends: Backend[] = PG_URL ? ["sqlite", "postgres"] : ["sqlite"];

// Vitest numbers the test files of a run from 0; only file 0 says it, so the notice appears
// once per run instead of once per file. An empty URL is the config's own choice for the files
// whose behaviour does not depend on the database (tests/vitest.config.ts), not a missing server.
if (process.env.ECFX_TEST_PG_URL === undefined && (process.env.VITEST_WORKER_ID ?? "0") === "0") {
  console.warn("PostgreSQL API tests did not run: set ECFX_TEST_PG_URL=postgres://postgres@127.0.0.1:5432/postgres");
}

/** A clock the test moves by hand; starts at the real time so tokens look ordinary. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface RunningApi {
  url: string;
  ctx: ServerContext;
  close(): Promise<void>;
}

/**
 * Whether a server may start on a copy of the run's demo template: the demo firms and users it
 * would create itself, with the same password, at a time its clock takes for the recent past.
 */
function templateFor(env: NodeJS.ProcessEnv, clock: Clock | undefined): TemplateKind {
  const config = loadConfig({ ...env, DATABASE_URL: "sqlite::memory:" });
  const recent = !clock || Math.abs(clock.now() - Date.now()) < 3_600_000;
  return config.ECFX_DEMO && !config.ECFX_DEMO_DATA && config.ECFX_DEMO_PASSWORD === DEMO_PASSWORD && recent ? "demo" : "migrated";
}

export async function startApi(options: { backend: Backend; env?: Record<string, string>; clock?: Clock; logStream?: Writable }): Promise<RunningApi> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-api-"));
  const env = {
    ...process.env,
    ECFX_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ECFX_DEMO: "true",
    ECFX_DEMO_DATA: "false",
    ECFX_DEMO_PASSWORD: DEMO_PASSWORD,
    ...options.env,
  };
  const template = templateFor(env, options.clock);
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  const cleanup = async () => {
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    pgDb = options.backend === "postgres" ? await createPgDatabase(template) : undefined;
    const config = loadConfig({ ...env, DATABASE_URL: pgDb?.url ?? (await createSqliteDatabase(dataDir, template)), ...options.env });
    const ctx = await openContext(config, options.clock);
    const app = buildApi(ctx, { logStream: options.logStream });
    try {
      const url = await app.listen({ port: 0, host: "127.0.0.1" });
      return {
        url,
        ctx,
        async close() {
          // Every test is over: sockets the fetch client keeps alive must not hold the close up.
          const closing = app.close();
          app.server.closeAllConnections();
          await closing;
          await ctx.database.close();
          await cleanup();
        },
      };
    } catch (error) {
      await ctx.database.close();
      throw error;
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** What a call answered: status, headers, and the body parsed as JSON when it is JSON. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  // The tests read arbitrary response shapes; each assertion states what it expects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  bytes: Uint8Array;
  text: string;
}

export interface RequestOptions {
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

async function call(url: string, token: string | undefined, method: string, route: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  // Copied into a plain ArrayBuffer-backed array, the one binary form fetch's types accept.
  let body: BodyInit | undefined = typeof options.body === "string" ? options.body : options.body && new Uint8Array(options.body);
  if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await fetch(new URL(route, url), { method, headers, body });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString("utf8");
  const isJson = (res.headers.get("content-type") ?? "").includes("json");
  return { status: res.status, headers: res.headers, body: isJson && text ? JSON.parse(text) : undefined, bytes, text };
}

/** A small fetch wrapper bound to one server and, optionally, one access token. */
export function api(url: string, token?: string) {
  return {
    request: (method: string, route: string, options?: RequestOptions) => call(url, token, method, route, options),
    get: (route: string, headers?: Record<string, string>) => call(url, token, "GET", route, { headers }),
    post: (route: string, json?: unknown, headers?: Record<string, string>) => call(url, token, "POST", route, { json, headers }),
    put: (route: string, json?: unknown, headers?: Record<string, string>) => call(url, token, "PUT", route, { json, headers }),
  };
}

/** Creates records for a test's set-up and answers their ids; anything but 201 stops the set-up. */
export function creator(client: ReturnType<typeof api>) {
  return async (route: string, body: unknown): Promise<string> => {
    const res = await client.post(route, body);
    if (res.status !== 201) throw new Error(`${route} answered ${res.status}: ${res.text}`);
    return res.body.id as string;
  };
}

export interface Session {
  user: { id: string; email: string; fullName: string; securityRoleId: string };
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** Signs in and returns the session; fails the test with the answer when sign-in fails. */
export async function login(url: string, email: string, password: string = DEMO_PASSWORD, headers?: Record<string, string>): Promise<Session> {
  const res = await api(url).post("/auth/login", { username: email, password }, headers);
  if (res.status !== 200) throw new Error(`login of ${email} answered ${res.status}: ${res.text}`);
  return res.body as Session;
}

/** One server shared by the tests of a describe block: started before them, closed after. */
export function useApi(options: Parameters<typeof startApi>[0]): () => RunningApi {
  let running: RunningApi | undefined;
  beforeAll(async () => {
    running = await startApi(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  return () => {
    if (!running) throw new Error("the API server did not start");
    return running;
  };
}

/**
 * Signs each address in once per server and hands out that session again while its access
 * token is valid on the server's clock: sign-in hashes the password on purpose slowly, and most
 * tests only need some valid session. Not for tests that end sessions (password changes, resets).
 */
export function sessionsOf(server: () => RunningApi, clock: Clock = systemClock): (email: string) => Promise<Session> {
  const cache = new Map<string, { at: number; session: Promise<Session> }>();
  return async (email) => {
    const key = `${server().url} ${email}`;
    const cached = cache.get(key);
    if (cached) {
      const session = await cached.session;
      if (clock.now() - cached.at < (session.expires_in - 60) * 1000) return session;
    }
    const entry = { at: clock.now(), session: login(server().url, email) };
    cache.set(key, entry);
    return entry.session;
  };
}
