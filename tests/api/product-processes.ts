// The product as real processes for the tests that kill them: each the compiled server in a process
// group of its own (a kill takes everything it started), a relay that records what it was sent,
// the test bed around them, fresh court notices, and the checks that every acknowledged notice was finished, filed once and
// mailed once.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { SERVER_ENTRY } from "../../scripts/build-server.mjs";
import { expect } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Database, openDatabase } from "../../server/db/database";
import { OPEN_STATUSES } from "../../server/pipeline/item-state";
import { demoNotices } from "../../server/seed/demo-notices";

import { freePort } from "../free-port";
import { buildServerOnce } from "./build-once";
import { type Backend, createPgDatabase } from "./harness";

export { freePort };

const root = path.resolve(import.meta.dirname, "../..");

/** Demo notices on cases whose timekeepers get real-time mail; their documents can be fetched. */
const SOURCES = [0, 1, 3].map((index) => demoNotices()[index]!);

export interface Notice {
  messageId: string;
  raw: string;
  from: string;
}

/** Batch `batch` of fresh notices: their own Message-IDs and court documents, so none is a duplicate. */
export function batchOf(batch: number, prefix = "crash"): Notice[] {
  return SOURCES.map((source, i) => {
    const messageId = `<${prefix}-${batch}-${i}@uscourts.test>`;
    const docId = `0399${String(batch * 10 + i).padStart(7, "0")}1`;
    const raw = source.raw.replace(/^Message-ID:.*$/m, `Message-ID: ${messageId}`).replace(/\/doc1\/\d+/g, `/doc1/${docId}`);
    return { messageId, raw, from: source.from };
  });
}

export interface Product {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output contains `text`; rejects when the process ends first or time runs out. */
  waitFor(text: string, ms: number): Promise<void>;
}

/** Every process group started here, so none outlives the test, whatever fails. */
const groups = new Set<number>();
export function killAllGroups(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  groups.clear();
}
process.once("exit", killAllGroups);

/**
 * The compiled product (build/server, as `npm start` and the container run it; make it first with
 * `buildServerOnce`) with these settings, in a process group of its own. NODE_ENV is production
 * unless `env` says otherwise (the test-only pause points need "test"). `under` is a command
 * that runs it (strace and its arguments).
 */
export function spawnProduct(env: Record<string, string>, under: string[] = []): Product {
  const [file, ...args] = [...under, process.execPath, SERVER_ENTRY];
  const child = spawn(file!, args, {
    cwd: root,
    detached: true,
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid) groups.add(child.pid);
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((l) => l());
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  child.once("exit", () => listeners.forEach((l) => l()));
  return {
    child,
    output: () => output,
    waitFor: (text, ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no "${text}" within ${ms / 1000} s:\n${output.slice(-3000)}`)), ms);
        const check = () => {
          if (output.includes(text)) done();
          else if (child.exitCode !== null || child.signalCode !== null) done(new Error(`the product ended before "${text}":\n${output.slice(-3000)}`));
        };
        const done = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      }),
  };
}

/** SIGKILL to the product's whole process group; resolves once it has ended. */
export async function killGroup(product: Product | undefined): Promise<void> {
  const child = product?.child;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
  await exited;
  groups.delete(child.pid);
}

export interface RelaySink {
  port: number;
  /** The Message-ID of every message received, repeats included. */
  messageIds: string[];
  close(): Promise<void>;
}

/** A mail relay that accepts everything and records what it was sent. */
export async function startRelaySink(): Promise<RelaySink> {
  const messageIds: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("latin1")));
      stream.on("end", () => {
        messageIds.push(/^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? "(none)");
        callback();
      });
    },
  });
  // A product killed in the middle of a session resets its connection: that mail was never
  // accepted, and the reset is no fault of the relay (unheard, it would end the test run).
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.server.address() as net.AddressInfo).port, messageIds, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Every file below `dir`, the temporaries of writes a kill cut short included: retries remove them. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** "" once no notice is open and no job is queued; otherwise, at the deadline, what is left. */
export async function settled(database: Database, deadlineMs: number): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const open = await database.db.selectFrom("inbox_item").select(["id", "status"]).where("status", "in", OPEN_STATUSES).execute();
    const jobs = await database.db.selectFrom("job").select(["kind", "attempts", "run_at", "locked_until", "last_error"]).execute();
    if (open.length === 0 && jobs.length === 0) return "";
    if (Date.now() >= deadline) {
      const byStatus = new Map<string, number>();
      for (const item of open) byStatus.set(item.status, (byStatus.get(item.status) ?? 0) + 1);
      return `open notices ${JSON.stringify(Object.fromEntries(byStatus))}; jobs ${JSON.stringify(jobs.slice(0, 10))} of ${jobs.length}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Every acknowledged notice is in the inbox once and Succeeded, nothing is left half way, each
 * document is stored once (the files in the store are exactly the records' locations), and each
 * recipient is mailed once per notice (one recorded mail, sent, and the relay saw no other).
 */
export async function expectEachOnce(database: Database, acknowledged: string[], relay: RelaySink, dataDir: string): Promise<void> {
  const db = database.db;
  const items = await db.selectFrom("inbox_item").select(["message_id", "status", "dms_status"]).where("parent_id", "is", null).execute();
  for (const messageId of acknowledged) {
    const own = items.filter((item) => item.message_id === messageId);
    expect(own, messageId).toHaveLength(1);
    expect(own[0], messageId).toMatchObject({ status: "Succeeded", dms_status: "succeeded" });
  }
  expect(items.filter((item) => (OPEN_STATUSES as string[]).includes(item.status))).toEqual([]);

  // A record keeps the folder it was written under, relative to its firm's own root.
  const records = await db.selectFrom("dms_record").select(["status", "location", "root", "firm_id"]).execute();
  expect(records.filter((r) => r.status !== "succeeded")).toEqual([]);
  const recorded = records.map((r) => path.posix.join(`firm-${r.firm_id}`, r.root ?? "", r.location ?? "")).sort();
  expect(new Set(recorded).size).toBe(recorded.length);
  expect(filesUnder(path.join(dataDir, "dms")).filter((file) => !file.endsWith(".properties.json"))).toEqual(recorded);

  const notifications = await db.selectFrom("notification").select(["status", "cadence", "outbound_mail_id"]).where("cadence", "=", "realtime").execute();
  expect(notifications.length).toBeGreaterThan(0);
  expect(notifications.filter((n) => n.status === "pending" || n.status === "sending")).toEqual([]);
  const mails = await db
    .selectFrom("outbound_mail")
    .select(["id", "inbox_item_id", "to_addresses", "status", "message_id"])
    .where("purpose", "=", "notice")
    .execute();
  const perRecipient = new Map<string, number>();
  for (const mail of mails)
    perRecipient.set(`${mail.inbox_item_id} ${mail.to_addresses}`, (perRecipient.get(`${mail.inbox_item_id} ${mail.to_addresses}`) ?? 0) + 1);
  expect([...perRecipient].filter(([, count]) => count !== 1)).toEqual([]);
  expect(mails.filter((mail) => mail.status !== "sent")).toEqual([]);
  const sentIds = new Set(notifications.filter((n) => n.status === "sent").map((n) => n.outbound_mail_id));
  expect(mails.filter((mail) => !sentIds.has(mail.id))).toEqual([]);
  const received = new Set(relay.messageIds);
  expect(mails.filter((mail) => !received.has(mail.message_id!))).toEqual([]);
  const allRecorded = new Set((await db.selectFrom("outbound_mail").select("message_id").execute()).map((m) => m.message_id));
  expect(relay.messageIds.filter((id) => !allRecorded.has(id))).toEqual([]);
}

/**
 * What a test of product processes runs around them: a data folder, the court simulator, a relay
 * that records what it was sent, and the database (a fresh PostgreSQL one, or SQLite in the folder).
 * `close` takes it all down, the processes started through `spawn` included, whatever failed.
 */
export class TestBed {
  readonly dataDir: string;
  private readonly products: Product[] = [];
  private simulator?: CourtSimulator;
  private relaySink?: RelaySink;
  private pgDb?: { url: string; drop(): Promise<void> };
  private database?: Database;
  private databaseUrl = "";

  constructor(prefix: string) {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ecfx-${prefix}-`));
  }

  /** Starts what the processes need; answers the settings they all share, on top of which each adds its own. */
  async start(backend: Backend, demoPassword: string): Promise<Record<string, string>> {
    await buildServerOnce();
    this.simulator = await startCourtSimulator();
    this.relaySink = await startRelaySink();
    this.pgDb = backend === "postgres" ? await createPgDatabase() : undefined;
    this.databaseUrl = this.pgDb?.url ?? `sqlite:${path.join(this.dataDir, "ecfx.sqlite")}`;
    return {
      ECFX_DATA_DIR: this.dataDir,
      DATABASE_URL: this.databaseUrl,
      ECFX_COURT_BASE_URL: this.simulator.url,
      ECFX_SMTP_RELAY_URL: `smtp://127.0.0.1:${this.relaySink.port}`,
      ECFX_DEMO: "true",
      ECFX_DEMO_DATA: "true",
      // The live notices only: the generated year of history would file beside them while the test kills.
      ECFX_DEMO_YEAR: "false",
      ECFX_DEMO_PASSWORD: demoPassword,
      ECFX_WORKER_CONCURRENCY: "2",
      // The start-up lines the tests wait for are written at info.
      LOG_LEVEL: "info",
      // The pause points the tests kill the product at (server/lib/test-pause.ts).
      NODE_ENV: "test",
    };
  }

  get relay(): RelaySink {
    if (!this.relaySink) throw new Error("the test bed has not started");
    return this.relaySink;
  }

  spawn(env: Record<string, string>, under: string[] = []): Product {
    const product = spawnProduct(env, under);
    this.products.push(product);
    return product;
  }

  /** The processes' database, for the test to read what they did. */
  open(): Database {
    this.database ??= openDatabase(this.databaseUrl);
    return this.database;
  }

  async close(): Promise<void> {
    for (const product of this.products) await killGroup(product);
    killAllGroups();
    await this.database?.close();
    await this.relaySink?.close();
    await this.simulator?.close();
    await this.pgDb?.drop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
