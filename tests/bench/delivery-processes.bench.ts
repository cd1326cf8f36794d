// Notices at a steady rate through the compiled product in separate processes, as a firm runs it
// on its machines: one process for the API and the SMTP listener, N worker processes, on SQLite
// or PostgreSQL, against the court simulator. For each offered rate, the p95 from the SMTP reply
// to the notice filed and mailed, and the product's CPU per notice; then the highest rate whose
// p95 stayed under 1 s. The workers are warmed first by a short run of notices that is not measured.
// CPU per notice is also given as a ratio to the bare pipeline's (bare-pipeline.ts), measured first.
// `compare` runs SQLite with one worker, PostgreSQL with one and PostgreSQL with three at each rate,
// in turn and then in reverse, round after round: a virtual machine's host drifts in speed over
// minutes, and alternating puts each pair's runs minutes apart at most, so the ratios are the
// databases' and the workers', not the host's.
// Run: npx tsx tests/bench/delivery-processes.bench.ts [sqlite|postgres] [workers] [rates,...] [seconds]
//      npx tsx tests/bench/delivery-processes.bench.ts compare [rates,...] [seconds] [rounds]
import os from "node:os";
import { sql } from "kysely";
import nodemailer from "nodemailer";
import { openDatabase } from "../../server/db/database";
import { POLLING_LOCK } from "../../server/db/polling-turn";
import { startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { apiAsAdmin, distinctNotices, fileAndMailSetup, percentile, waitUntilDelivered } from "./notice-pipeline";
import { barePipelineCpu } from "./bare-pipeline";
import { freePort } from "../free-port";
import { noisyPng } from "../api/png";
import {
  BENCH_PASSWORD,
  type BackendName,
  type PreparedData,
  type SpawnedProduct,
  answers,
  buildProduct,
  findPostgres,
  prepareData,
  productCpu,
  spawnProduct,
} from "./product";

const COMPARE = process.argv[2] === "compare";
// The comparison runs PostgreSQL too, so it needs the server the sweep on PostgreSQL looks for.
const [backendArg, workersArg, ratesArg, secondsArg, roundsArg] = COMPARE ? ["postgres", "1", ...process.argv.slice(3)] : process.argv.slice(2);
const BACKEND = (backendArg ?? "sqlite") as BackendName;
const WORKERS = Number(workersArg ?? 1);
const RATES = (ratesArg ?? (COMPARE ? "10,20" : "30,40,50,60,80")).split(",").map(Number);
const SECONDS = Number(secondsArg ?? (COMPARE ? 15 : 10));
const ROUNDS = Number(roundsArg ?? 2);
const AIM_MS = 1_000;
/**
 * Notices per worker sent, and waited for, before the measured ones: a firm's worker runs for days, so its
 * start (loading, compiling the hot paths, the first connections) is no part of a steady rate.
 */
const WARM_UP = 40;
/** Notices of the bare pipeline, the run's reference for the machine's speed. */
const BARE_NOTICES = 300;

interface RateResult {
  rate: number;
  p50: number;
  p95: number;
  done: number;
  cpuPerNotice: number;
  /** The same, split: the API and SMTP process, the workers, PostgreSQL's backends. */
  split: { front: number; workers: number; backends: number };
  /** Stages tried again later (the workers' own warnings), per notice. */
  retriesPerNotice: number;
  /** PostgreSQL only: what its counters and lock table said over the measured notices. */
  contention?: Contention;
}

interface Contention {
  /** Samples (every 100 ms) of the product's backends waiting for a lock, summed, per notice. */
  lockWaitsPerNotice: number;
  deadlocks: number;
  /** Transactions committed (a statement outside a transaction is one), per notice. */
  commitsPerNotice: number;
  rollbacksPerNotice: number;
  /** Connections opened: each is a new backend that loads its caches and plans its statements again. */
  sessions: number;
}

const RETRIED = "stage failed, tried again later";
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * Watches PostgreSQL while notices flow: its backends for the database waiting for a lock,
 * sampled, and the database's deadlock and transaction counters. Resolves to the figures once stopped.
 */
async function watchContention(database: ReturnType<typeof openDatabase>, name: string): Promise<(notices: number) => Promise<Contention>> {
  const counters = async () =>
    (
      await sql<{ deadlocks: number; commits: number; rollbacks: number; sessions: number }>`select deadlocks::int as deadlocks, xact_commit::int as commits,
        xact_rollback::int as rollbacks, sessions::int as sessions from pg_stat_database where datname = ${name}`.execute(database.db)
    ).rows[0]!;
  const before = await counters();
  let waits = 0;
  const sampler = setInterval(() => {
    // Idle worker processes waiting for their turn to poll (polling-turn.ts) wait for no work.
    void sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted
      and pid in (select pid from pg_stat_activity where datname = ${name})
      and not (locktype = 'advisory' and objid = ${POLLING_LOCK})`
      .execute(database.db)
      .then(
        (r) => (waits += r.rows[0]?.n ?? 0),
        () => undefined,
      );
  }, 100);
  return async (notices) => {
    clearInterval(sampler);
    const after = await counters();
    // The watcher's own statements are a few per second; they are left in the commit count.
    return {
      lockWaitsPerNotice: waits / notices,
      deadlocks: after.deadlocks - before.deadlocks,
      commitsPerNotice: (after.commits - before.commits) / notices,
      rollbacksPerNotice: (after.rollbacks - before.rollbacks) / notices,
      sessions: after.sessions - before.sessions,
    };
  };
}

/** Resolves once a worker process says it runs jobs (it has opened the database and loaded its code). */
async function startedWorking(worker: SpawnedProduct): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (worker.log().includes("ECFX worker running")) return;
    if (worker.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`a worker did not start:\n${worker.log().slice(-3_000)}`);
}

/** What one run starts: the database and the number of worker processes. */
interface Setup {
  backend: BackendName;
  workers: number;
}

async function runAt({ backend, workers: workerCount }: Setup, rate: number, pgUrl?: string): Promise<RateResult> {
  const count = rate * SECONDS;
  const data: PreparedData = await prepareData(backend, pgUrl);
  const simulator = await startCourtSimulator();
  const products: SpawnedProduct[] = [];
  try {
    const [apiPort, smtpPort] = [await freePort(), await freePort()];
    const common = {
      ECFX_COURT_BASE_URL: simulator.url,
      ECFX_DEMO_DATA: "false",
      ECFX_DEMO_YEAR: "false",
      ECFX_DEMO_PASSWORD: BENCH_PASSWORD,
      ECFX_COURT_CONCURRENCY: "8",
      ECFX_API_PORT: String(apiPort),
      ECFX_SMTP_PORT: String(smtpPort),
    };
    // The front first: it creates the database, the secrets and the demo firm the workers share.
    const front = spawnProduct(data, { ...common, ECFX_ROLES: "api,smtp" });
    products.push(front);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    if (!(await answers(`${apiUrl}/api/v1/health`, front, 120_000))) throw new Error(`the API did not start:\n${front.log().slice(-3_000)}`);
    const workers = Array.from({ length: workerCount }, () => spawnProduct(data, { ...common, ECFX_ROLES: "worker" }));
    products.push(...workers);
    await Promise.all(workers.map((worker) => startedWorking(worker)));

    const { token, post } = await apiAsAdmin(apiUrl, BENCH_PASSWORD);
    const policy = await fileAndMailSetup(post);
    // The firm has its logo, as a firm using the product does: a PNG of about 200 KB.
    const logo = await fetch(`${apiUrl}/api/v1/firm/logo.png`, {
      method: "PUT",
      headers: { "content-type": "image/png", authorization: `Bearer ${token}` },
      body: new Uint8Array(noisyPng(260, 260)),
    });
    if (!logo.ok) throw new Error(`the logo was refused: ${logo.status} ${await logo.text()}`);

    const database = openDatabase(data.env.DATABASE_URL ?? `sqlite:${data.env.ECFX_DATA_DIR}/ecfx.sqlite`);
    try {
      const db = database.db;
      await db.updateTable("firm").set({ storage_policy_id: policy }).where("is_default", "=", 1).execute();
      // CPU of every process of the product, and of PostgreSQL's backends for its database once.
      const withBackends = productCpu(front.child.pid!, data);
      const frontOnly = productCpu(front.child.pid!, data, false);
      const workersOnly = productCpu(
        workers.map((worker) => worker.child.pid!),
        data,
        false,
      );
      const cpu = () => {
        const [all, front, workers] = [withBackends(), frontOnly(), workersOnly()];
        return { total: all + workers, front, workers, backends: all - front };
      };
      const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, pool: true, maxConnections: 10, ignoreTLS: true });
      // Each worker warms up as one alone would.
      const warmUp = WARM_UP * workerCount;
      const messages = distinctNotices(warmUp + count);
      /** Sends `raw` at `perSecond`, paced by the clock, not by the replies: the rate holds when the product falls behind. */
      const sendAt = async (raw: string[], perSecond: number) => {
        const from = Date.now();
        const sends: Promise<unknown>[] = [];
        for (let n = 0; n < raw.length; n++) {
          const wait = from + (n * 1000) / perSecond - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          sends.push(transport.sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.test", to: [DEMO_INBOX] }, raw: raw[n]! }));
        }
        await Promise.all(sends);
      };
      await sendAt(messages.slice(0, warmUp), 10);
      await waitUntilDelivered(db, warmUp);
      const cpuBefore = cpu();
      const retriedBefore = workers.reduce((sum, worker) => sum + occurrences(worker.log(), RETRIED), 0);
      const watching = backend === "postgres" ? await watchContention(database, new URL(data.env.DATABASE_URL!).pathname.slice(1)) : undefined;
      const started = Date.now();
      await sendAt(messages.slice(warmUp), rate);
      transport.close();
      await waitUntilDelivered(db, warmUp + count);
      const cpuAfter = cpu();
      const cpuUsed = cpuAfter.total - cpuBefore.total;
      const contention = await watching?.(count);
      const retried = workers.reduce((sum, worker) => sum + occurrences(worker.log(), RETRIED), 0) - retriedBefore;
      // The warm-up's notices were all received before the clock started.
      const items = await db.selectFrom("inbox_item").select(["id", "created_at"]).where("created_at", ">=", started).execute();
      const mails = new Map(
        (await db.selectFrom("outbound_mail").select(["inbox_item_id", "created_at"]).where("inbox_item_id", "is not", null).execute()).map((m) => [
          m.inbox_item_id!,
          Number(m.created_at),
        ]),
      );
      const files = new Map<string, number>();
      for (const r of await db.selectFrom("dms_record").select(["inbox_item_id", "updated_at"]).where("status", "=", "succeeded").execute()) {
        files.set(r.inbox_item_id, Math.max(files.get(r.inbox_item_id) ?? 0, Number(r.updated_at)));
      }
      const both = items.filter((i) => mails.has(i.id) && files.has(i.id)).map((i) => Math.max(mails.get(i.id)!, files.get(i.id)!) - Number(i.created_at));
      const sorted = both.sort((a, b) => a - b);
      return {
        rate,
        p50: percentile(sorted, 50),
        p95: sorted.length < count ? Infinity : percentile(sorted, 95),
        done: both.length,
        cpuPerNotice: cpuUsed / count,
        split: {
          front: (cpuAfter.front - cpuBefore.front) / count,
          workers: (cpuAfter.workers - cpuBefore.workers) / count,
          backends: (cpuAfter.backends - cpuBefore.backends) / count,
        },
        retriesPerNotice: retried / count,
        contention,
      };
    } finally {
      await database.close();
    }
  } finally {
    for (const product of products.reverse()) await product.stop();
    await simulator.close();
    await data.cleanup();
  }
}

const databaseName = (backend: BackendName) => (backend === "sqlite" ? "SQLite" : "PostgreSQL");
const workersNamed = (n: number) => `${n} worker${n > 1 ? "s" : ""}`;

/** One run's figures, as the sweep and the comparison print them. */
function describeRun(backend: BackendName, r: RateResult, bare: number): string[] {
  const p95 = Number.isFinite(r.p95) ? `${r.p95} ms` : `not all done (${r.done} of ${r.rate * SECONDS})`;
  const c = r.contention;
  return [
    `p50 ${r.p50} ms, p95 ${p95}, CPU ${r.cpuPerNotice.toFixed(1)} ms per notice (${(r.cpuPerNotice / bare).toFixed(1)}× the bare pipeline: API and SMTP ${r.split.front.toFixed(1)}, workers ${r.split.workers.toFixed(1)}${backend === "postgres" ? `, backends ${r.split.backends.toFixed(1)}` : ""})`,
    `per notice: ${r.retriesPerNotice.toFixed(2)} stages tried again` +
      (c
        ? `, ${c.lockWaitsPerNotice.toFixed(2)} lock waits seen (sampled every 100 ms), ${c.commitsPerNotice.toFixed(1)} commits, ${c.rollbacksPerNotice.toFixed(2)} rollbacks; ${c.deadlocks} deadlocks; ${c.sessions} connections opened`
        : ""),
  ];
}

/** The rates from the lowest up, until one falls far behind: the highest whose p95 stayed under the aim. */
async function sweep(bare: number, pgUrl?: string): Promise<void> {
  let best = 0;
  for (const rate of RATES) {
    const r = await runAt({ backend: BACKEND, workers: WORKERS }, rate, pgUrl);
    const [figures, contention] = describeRun(BACKEND, r, bare);
    console.log(`  ${String(rate).padStart(3)}/s: ${figures}\n        ${contention}`);
    if (r.p95 < AIM_MS) best = rate;
    else if (r.p95 > 3 * AIM_MS) break;
  }
  console.log(`  highest steady rate with p95 under ${AIM_MS} ms: ${best ? `${best} notices/s` : `below ${RATES[0]}/s`}`);
}

const SQLITE_ONE: Setup = { backend: "sqlite", workers: 1 };
const POSTGRES_ONE: Setup = { backend: "postgres", workers: 1 };
const POSTGRES_THREE: Setup = { backend: "postgres", workers: 3 };

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const times = (v: number) => `${v.toFixed(2)}×`;

/** A ratio of the means over the rounds, with the spread of the rounds' own ratios. */
function ratioLine(what: string, over: number[], under: number[]): string {
  const each = over.map((v, i) => v / under[i]!);
  return `${what}: ${mean(over).toFixed(1)} / ${mean(under).toFixed(1)} ms = ${times(mean(over) / mean(under))} (rounds ${times(Math.min(...each))}–${times(Math.max(...each))})`;
}

/**
 * What PostgreSQL adds to SQLite's CPU per notice, split: its backends, and its product processes
 * beyond SQLite's (which do SQLite's own work); beside what the aim of 1.2 times SQLite allows.
 */
function addedLine(rate: number, postgres: RateResult[], sqlite: RateResult[]): string {
  const [all, own, base] = [mean(cpuOf(postgres)), mean(postgres.map((r) => r.split.backends)), mean(cpuOf(sqlite))];
  return `${rate}/s, what PostgreSQL adds: ${(all - base).toFixed(1)} ms per notice (its backends ${own.toFixed(1)}, its processes ${(all - own - base).toFixed(1)} more than SQLite's); 1.2 times SQLite allows ${(0.2 * base).toFixed(1)}`;
}

const cpuOf = (runs: RateResult[]) => runs.map((r) => r.cpuPerNotice);

/**
 * SQLite and PostgreSQL with one worker, and PostgreSQL with three, at each rate: in that order in
 * odd rounds and the reverse in even ones, so that each pair compared runs side by side.
 */
async function compare(bare: number, pgUrl: string): Promise<void> {
  for (const rate of RATES) {
    const runs = new Map<Setup, RateResult[]>([
      [SQLITE_ONE, []],
      [POSTGRES_ONE, []],
      [POSTGRES_THREE, []],
    ]);
    for (let round = 1; round <= ROUNDS; round++) {
      const order = [...runs.keys()];
      for (const setup of round % 2 === 1 ? order : order.reverse()) {
        const r = await runAt(setup, rate, pgUrl);
        runs.get(setup)!.push(r);
        const [figures, contention] = describeRun(setup.backend, r, bare);
        console.log(`  ${rate}/s, round ${round}, ${databaseName(setup.backend)}, ${workersNamed(setup.workers)}: ${figures}\n        ${contention}`);
      }
    }
    const [sqlite, postgres, three] = [runs.get(SQLITE_ONE)!, runs.get(POSTGRES_ONE)!, runs.get(POSTGRES_THREE)!];
    console.log(`  ${ratioLine(`${rate}/s, 1 worker, PostgreSQL against SQLite`, cpuOf(postgres), cpuOf(sqlite))}`);
    console.log(`  ${addedLine(rate, postgres, sqlite)}`);
    console.log(`  ${ratioLine(`${rate}/s, PostgreSQL, 3 workers against 1`, cpuOf(three), cpuOf(postgres))}`);
  }
}

async function main() {
  let pgUrl: string | undefined;
  if (BACKEND === "postgres") {
    const found = await findPostgres();
    if ("reason" in found) {
      console.log(`delivery in separate processes on PostgreSQL skipped: ${found.reason}`);
      return;
    }
    pgUrl = found.url;
  }
  await buildProduct();
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model ?? "?"} × ${cpus.length}, load ${os.loadavg()[0]?.toFixed(2)}`;
  console.log(
    COMPARE
      ? `CPU per notice in separate processes, SQLite and PostgreSQL with 1 worker and PostgreSQL with 3, alternated over ${ROUNDS} rounds of ${SECONDS} s — ${machine}`
      : `notices through separate processes on ${databaseName(BACKEND)}: API and SMTP in one, ${workersNamed(WORKERS)} — ${machine}`,
  );
  // Measured before any product process runs, on the same notices.
  const bare = await barePipelineCpu(distinctNotices(BARE_NOTICES));
  console.log(`  the bare pipeline (mailparser, SQLite, a synced file, Nodemailer's composer): ${bare.toFixed(2)} ms of CPU per notice`);
  if (COMPARE) await compare(bare, pgUrl!);
  else await sweep(bare, pgUrl);
}

void main();
