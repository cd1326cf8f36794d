// The product as the benchmarks run it: a temporary data folder (and PostgreSQL database), the
// `ecfx seed` command, and `server/main.ts` on free ports, each a real child process.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "../free-port";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { SERVER_ENTRY, ensureServerBuilt } from "../../scripts/build-server.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
export const BENCH_PASSWORD = "Bench-Passw0rd!";

export type BackendName = "sqlite" | "postgres";

export interface PreparedData {
  backend: BackendName;
  /** Environment every child process of this backend gets. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

const DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres";

/** The PostgreSQL server to use (ECFX_TEST_PG_URL, else a local one), or why there is none. */
export async function findPostgres(): Promise<{ url: string } | { reason: string }> {
  const url = process.env.ECFX_TEST_PG_URL ?? DEFAULT_PG;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { url };
  } catch (error) {
    return { reason: `no PostgreSQL at ${url.replace(/\/\/[^@]*@/, "//")} (${(error as Error).message}); set ECFX_TEST_PG_URL` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function prepareData(backend: BackendName, pgUrl?: string): Promise<PreparedData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ecfx-bench-${backend}-`));
  const env: Record<string, string> = { ECFX_DATA_DIR: dataDir, ECFX_DEMO: "true", ECFX_DEMO_PASSWORD: BENCH_PASSWORD, LOG_LEVEL: "info" };
  let dropDb = async () => {};
  if (backend === "postgres") {
    if (!pgUrl) throw new Error("PostgreSQL benchmark without a server");
    const name = `ecfx_bench_${randomBytes(5).toString("hex")}`;
    await adminQuery(pgUrl, `CREATE DATABASE ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDb = () => adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  return {
    backend,
    env,
    async cleanup() {
      await dropDb();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `ecfx seed --size large` as an operator would; returns its output and wall time. */
export function runSeed(data: PreparedData, size = "large"): Promise<{ seconds: number; output: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["server/cli/ecfx.ts", "seed", "--size", size, "--force"], { cwd: ROOT, env: { ...process.env, ...data.env } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve({ seconds: (performance.now() - started) / 1000, output });
      else reject(new Error(`ecfx seed exited with ${code}:\n${output}`));
    });
  });
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * Counts into `seen` (by pid and start time) the CPU ticks of the processes whose /proc entries
 * pass `keep`, once passed always; a process that has ended keeps what it had used when last
 * seen. Returns how many of them are alive; nothing elsewhere than Linux.
 */
function lookAt(keep: (stat: string[], pid: string, command: string) => boolean, seen: Map<string, number>): number {
  if (!fs.existsSync("/proc/self/stat")) return 0;
  let alive = 0;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const raw = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // After the command name in parentheses: state, ppid, pgrp, ..., utime (12th), stime (13th), starttime (20th).
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      const key = `${pid}:${fields[19]}`;
      if (!seen.has(key) && !keep(fields, pid, raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")")))) continue;
      seen.set(key, Number(fields[11]) + Number(fields[12]));
      alive++;
    } catch {
      // the process ended meanwhile
    }
  }
  return alive;
}

/** How often the processes are looked at between readings: a backend the pool closes has been idle for 10 s. */
const LOOK_EVERY_MS = 2_000;

/**
 * CPU used by the product's processes (the process groups named) and, on PostgreSQL unless
 * `database` is false, by the server's backends for its database. The backends are looked at
 * every 2 s as well, so one that a pool closes between two readings still counts, until none of
 * what is counted is left (the database dropped, the product stopped).
 */
export function productCpu(groupIds: number | number[], data: PreparedData, database = true): () => number {
  const groups = new Set((Array.isArray(groupIds) ? groupIds : [groupIds]).map(String));
  const name = database && data.env.DATABASE_URL ? new URL(data.env.DATABASE_URL).pathname.slice(1) : undefined;
  const seen = new Map<string, number>();
  const look = () =>
    lookAt((fields, pid, command) => {
      if (groups.has(fields[2] ?? "")) return true;
      if (!name || command !== "postgres") return false;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmdline.startsWith("postgres:") && cmdline.includes(` ${name} `);
    }, seen);
  if (name) {
    const timer = setInterval(() => {
      if (look() === 0 && seen.size > 0) clearInterval(timer);
    }, LOOK_EVERY_MS).unref();
  }
  return () => {
    look();
    let ticks = 0;
    for (const used of seen.values()) ticks += used;
    return ticks * TICK_MS;
  };
}

export interface RunningProduct {
  apiUrl: string;
  consoleUrl: string;
  /** CPU milliseconds the product (and its database backends) have used so far. */
  cpuMs(): number;
  /** The same, split: the console's processes, and the API's process with its database backends. */
  consoleCpuMs(): number;
  apiCpuMs(): number;
  /** Where the console's bare baseline page (/bench/bare-table) reads its rows from. */
  bareRowsFile: string;
  /** What the processes printed, for the error message when something fails. */
  /** From the spawn to the console and API both answering. */
  startupMs: number;
  log(): string;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/**
 * The compiled product (`build/server/main.js`, as `npm start` runs it) with the console and API
 * roles. Started twice: the first start builds what is stale, the second is the one timed and used.
 */
export async function startProduct(data: PreparedData): Promise<RunningProduct> {
  await buildProduct();
  await (await startOnce(data)).stop();
  return startOnce(data);
}

export interface SpawnedProduct {
  child: ChildProcess;
  /** Stops the process and any process it started (its own process group). */
  stop(): Promise<void>;
  log(): string;
}

/** The compiled product as one process group with the given roles and settings. */
export function spawnProduct(data: PreparedData, env: Record<string, string>): SpawnedProduct {
  // ECFX_BENCH_NODE_ARGS: node options for the product's processes, e.g. "--cpu-prof --cpu-prof-dir=DIR"
  // to profile them (NODE_OPTIONS refuses those).
  const nodeArgs = process.env.ECFX_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, SERVER_ENTRY], {
    cwd: ROOT,
    // Its own process group, so stopping it also stops the console process it starts.
    detached: true,
    env: { ...process.env, ...data.env, ...env },
  });
  let log = "";
  child.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stop, log: () => log };
}

/** Waits until `url` answers 2xx, while the process runs; false when it stopped or time ran out. */
export const answers = (url: string, product: SpawnedProduct, timeoutMs: number) => waitFor(url, product.child, timeoutMs);

/**
 * The API and the console as two process groups (`ECFX_ROLES=api`, `ECFX_ROLES=console`), as a
 * firm may run them, so that each one's CPU is measured apart: with both roles in one process the
 * console serves from the API's processes.
 */
async function startOnce(data: PreparedData): Promise<RunningProduct> {
  const [port, apiPort] = [await freePort(), await freePort()];
  const startedAt = performance.now();
  const bareRowsFile = path.join(data.env.ECFX_DATA_DIR!, "bench-bare-rows.json");
  const common = { ECFX_API_PORT: String(apiPort), ECFX_HOST: "127.0.0.1", ECFX_BENCH_BARE_ROWS: bareRowsFile };
  const api = spawnProduct(data, { ...common, ECFX_ROLES: "api" });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const consoleUrl = `http://127.0.0.1:${port}`;
  // The API first: it creates the database, the secrets and the demo firm the console reads.
  const apiReady = await answers(`${apiUrl}/api/v1/health`, api, 120_000);
  const web = apiReady ? spawnProduct(data, { ...common, ECFX_ROLES: "console", PORT: String(port) }) : undefined;
  const log = () => `${api.log()}${web?.log() ?? ""}`;
  const stop = async () => {
    await Promise.all([api.stop(), web?.stop()]);
  };
  // A stale console build is rebuilt at start, which takes a while on two cores.
  if (!web || !(await answers(`${consoleUrl}/healthcheck`, web, 600_000))) {
    await stop();
    throw new Error(`the product did not start:\n${log().slice(-4_000)}`);
  }
  const [apiGroup, consoleGroup] = [api.child.pid!, web.child.pid!];
  return {
    apiUrl,
    consoleUrl,
    startupMs: performance.now() - startedAt,
    cpuMs: productCpu([apiGroup, consoleGroup], data),
    consoleCpuMs: productCpu(consoleGroup, data, false),
    apiCpuMs: productCpu(apiGroup, data),
    bareRowsFile,
    log,
    stop,
  };
}

/** Compiles the server when its sources changed (once per benchmark run is enough). */
export const buildProduct = (): Promise<void> => ensureServerBuilt();

/** A benchmark script of its own (`npx tsx tests/bench/<script> …`), its output as is. */
export function runBenchScript(script: string, args: string[] = []): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [`tests/bench/${script}`, ...args], { cwd: ROOT, env: process.env });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", (error) => resolve(`could not run: ${error.message}`));
    child.on("exit", (code) => resolve(code === 0 ? output.trim() : `exited with ${code}:\n${output.trim()}`));
  });
}
