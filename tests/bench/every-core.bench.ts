// `npx tsx tests/bench/every-core.bench.ts [seconds] [warm-up seconds]`
//
// Throughput of the console's case list page and of the API's case search on the large SQLite
// seed: ONE process serving both the console and the API (ECFX_ROLES=console,api,
// ECFX_WEB_CONCURRENCY=1) against a process per core, each serving both (the default). Closed loop:
// a fixed number of clients, each sending its next request when the last one is answered, for a
// fixed time. Both configurations run at once, each idle while the other is measured, and are
// measured in alternating slices, so that a machine whose speed changes during the run (a virtual
// machine's often does) changes both alike. The clients run on the same machine: they are undici
// dispatches over kept-alive connections, so that they take little, and the CPU they take is
// measured and reported with the figures (its share of the machine is capacity the product did not
// have), never left out.
// Beside them, the same stack's bare page (50 rows, no API call, no product code): a virtual
// machine's cores are not always independent (one core alone may run faster than two together), and
// the bare page's ratio says what any page of this stack can reach on the machine of the run.
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";
import { BARE_PAGE, CONSOLE_PAGE, apiToken, consoleCookie, writeBareRows } from "./search";
import { freePort } from "../free-port";
import { answers, buildProduct, prepareData, productCpu, runSeed, spawnProduct } from "./product";
import { machine, machineLine } from "./report";

const seconds = Number(process.argv[2] ?? 15);
// The optimising compiler works on the console's code in background threads for the first tens of
// seconds of load (measured: V8's threads took 2.7 ms of CPU per page after 2 s of load, 1.1 after
// 40 s, by then mostly the collector), and a process that serves half the pages warms up half as
// fast: each loop first runs this long.
const warmUpSeconds = Number(process.argv[3] ?? 30);
const cores = os.availableParallelism();
const CLIENTS = 4 * cores;
/** Each configuration's measured time is cut into this many slices, alternating with the other's. */
const SLICES = 6;

interface Loop {
  perSecond: number;
  /** CPU of the load generator (this process) per answer, ms. */
  clientCpuMs: number;
  /** CPU of the product's processes per answer, ms. */
  productCpuMs: number;
  /** The load generator's share of the machine's CPU over the run. */
  clientShare: number;
}

/** Where a GET goes: built once, so the load generator spends its CPU on requests, not on URLs. */
interface Target {
  pool: Pool;
  path: string;
}

/**
 * One GET through undici's dispatcher, the body counted and dropped as it arrives: no stream, no
 * buffer, so the load generator takes as little of the machine as a request can (measured against
 * node:http's kept-alive agent: docs/benchmarks.md).
 */
function get(target: Target, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    let status = 0;
    target.pool.dispatch(
      { method: "GET", path: target.path, headers },
      {
        onConnect: () => {},
        onHeaders: (statusCode) => {
          status = statusCode;
          return true;
        },
        onData: () => true,
        onComplete: () => resolve(status === 200),
        onError: () => resolve(false),
      },
    );
  });
}

/** What one slice of a closed loop gave: answers, time, and the CPU both sides used. */
interface Slice {
  answered: number;
  elapsedMs: number;
  clientMs: number;
  productMs: number;
}

/** `clients` loops of `request` for `ms`, with the CPU both sides used. */
async function closedLoop(request: () => Promise<boolean>, productCpuMs: () => number, clients: number, ms: number): Promise<Slice> {
  let answered = 0;
  let failed = 0;
  const clientBefore = process.cpuUsage();
  const productBefore = productCpuMs();
  const started = performance.now();
  const until = started + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        if (await request()) answered++;
        else failed++;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(clientBefore);
  if (failed) throw new Error(`${failed} requests failed`);
  return { answered, elapsedMs, clientMs: (used.user + used.system) / 1000, productMs: productCpuMs() - productBefore };
}

function loopOf(slices: Slice[]): Loop {
  const sum = (key: keyof Slice) => slices.reduce((total, slice) => total + slice[key], 0);
  const [answered, elapsedMs, clientMs] = [sum("answered"), sum("elapsedMs"), sum("clientMs")];
  return {
    perSecond: answered / (elapsedMs / 1000),
    clientCpuMs: clientMs / answered,
    productCpuMs: sum("productMs") / answered,
    clientShare: clientMs / (elapsedMs * cores),
  };
}

/** One configuration of the product, started and signed in, its requests ready. */
interface Running {
  processes: number;
  startupMs: number;
  cpu: () => number;
  requests: Record<Kind, () => Promise<boolean>>;
  stop(): Promise<void>;
}

type Kind = "console" | "bare" | "api";

async function start(data: Awaited<ReturnType<typeof prepareData>>, processes: number): Promise<Running> {
  const [port, apiPort] = [await freePort(), await freePort()];
  const bareRowsFile = path.join(data.env.ECFX_DATA_DIR!, `bench-bare-rows-${processes}.json`);
  const started = performance.now();
  const product = spawnProduct(data, {
    ECFX_BENCH_BARE_ROWS: bareRowsFile,
    ECFX_ROLES: "console,api",
    PORT: String(port),
    ECFX_API_PORT: String(apiPort),
    ECFX_HOST: "127.0.0.1",
    ECFX_WEB_CONCURRENCY: String(processes),
  });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const consoleUrl = `http://127.0.0.1:${port}`;
  // A kept-alive connection per client, to each server.
  const consolePool = new Pool(consoleUrl, { connections: CLIENTS });
  const apiPool = new Pool(apiUrl, { connections: CLIENTS });
  const stop = async () => {
    await Promise.all([consolePool.destroy(), apiPool.destroy()]);
    await product.stop();
  };
  try {
    if (!(await answers(`${apiUrl}/api/v1/health`, product, 120_000)) || !(await answers(`${consoleUrl}/healthcheck`, product, 600_000))) {
      throw new Error(`the product did not start:\n${product.log().slice(-3000)}`);
    }
    const startupMs = performance.now() - started;
    // Every copy listening before the loops start: a kept-alive connection stays with the copy that
    // took it, and the health checks above answer once one copy listens. Each says "ECFX API on".
    const copiesListen = () => product.log().split("ECFX API on").length - 1 >= processes;
    const until = performance.now() + 120_000;
    while (!copiesListen() && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
    if (!copiesListen()) throw new Error(`not every copy started:\n${product.log().slice(-3000)}`);
    const cookie = await consoleCookie(consoleUrl);
    const token = await apiToken(apiUrl);
    await writeBareRows(apiUrl, token, bareRowsFile);
    const page: Target = { pool: consolePool, path: CONSOLE_PAGE };
    const bare: Target = { pool: consolePool, path: BARE_PAGE };
    const searches = Array.from({ length: 1900 }, (_, n) => ({ pool: apiPool, path: `/api/v1/case/search?max=50&offset=${(n + 100) * 50}&sort=-case_number` }));
    const authorization = { authorization: `Bearer ${token}` };
    let n = 0;
    return {
      processes,
      startupMs,
      cpu: productCpu(product.child.pid!, data),
      requests: {
        console: () => get(page, { cookie }),
        bare: () => get(bare, { cookie }),
        api: () => {
          n = (n + 37) % searches.length;
          return get(searches[n]!, authorization);
        },
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * One kind of request on both configurations: each warmed up, then measured in alternating
 * slices (one, all, all, one, one, all…), so that a machine whose speed changes during the run
 * changes both figures alike. Returns each configuration's loop and the ratio of each pair of
 * neighbouring slices.
 */
async function compare(kind: Kind, one: Running, all: Running): Promise<{ one: Loop; all: Loop; pairs: number[] }> {
  for (const running of [one, all]) await closedLoop(running.requests[kind], running.cpu, CLIENTS, warmUpSeconds * 1000);
  const slices = new Map<Running, Slice[]>([
    [one, []],
    [all, []],
  ]);
  const pairs: number[] = [];
  for (let round = 0; round < SLICES; round++) {
    const order = round % 2 === 0 ? [one, all] : [all, one];
    for (const running of order) slices.get(running)!.push(await closedLoop(running.requests[kind], running.cpu, CLIENTS, (seconds * 1000) / SLICES));
    const [a, b] = [slices.get(one)!.at(-1)!, slices.get(all)!.at(-1)!];
    pairs.push(b.answered / b.elapsedMs / (a.answered / a.elapsedMs));
  }
  return { one: loopOf(slices.get(one)!), all: loopOf(slices.get(all)!), pairs };
}

// The cores the product kept busy tell a product that scales from one that got more of a machine
// other work shares: two processes are offered two cores, one process one.
const row = (loop: Loop, what: Kind) =>
  `${loop.perSecond.toFixed(what === "api" ? 0 : 1)} (client ${loop.clientCpuMs.toFixed(2)} ms, ${(100 * loop.clientShare).toFixed(0)} % of the machine; product ${loop.productCpuMs.toFixed(1)} ms, ${((loop.perSecond * loop.productCpuMs) / 1000).toFixed(2)} cores busy)`;

const spread = (pairs: number[]) => {
  const sorted = [...pairs].sort((a, b) => a - b);
  return `slices ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}`;
};

async function main(): Promise<void> {
  console.log(`Machine: ${machineLine(machine())}`);
  await buildProduct();
  const data = await prepareData("sqlite");
  try {
    await runSeed(data);
    // Started one after the other (each start checks the database); idle while the other is measured.
    const one = await start(data, 1);
    const all = await start(data, cores).catch(async (error: unknown) => {
      await one.stop();
      throw error;
    });
    try {
      const results = { console: await compare("console", one, all), bare: await compare("bare", one, all), api: await compare("api", one, all) };
      console.log(
        `${CLIENTS} clients (undici dispatcher, kept-alive), SQLite, 100,000 cases; each configuration warmed up ${warmUpSeconds} s, then measured ${seconds} s in ${SLICES} slices alternating with the other's. Console page ${CONSOLE_PAGE}, the bare page of the same stack ${BARE_PAGE}, API case search pages 100-1990 sorted by -case_number. In brackets: CPU per answer of the load generator and its share of the machine; of the product, and the cores it kept busy.`,
      );
      console.log(`| processes (each serving the console and the API) | console pages/s | bare pages/s | API searches/s | start to first answer |`);
      console.log("| --- | --- | --- | --- | --- |");
      for (const [running, side] of [
        [one, "one"],
        [all, "all"],
      ] as const) {
        console.log(
          `| ${running.processes} | ${row(results.console[side], "console")} | ${row(results.bare[side], "bare")} | ${row(results.api[side], "api")} | ${(running.startupMs / 1000).toFixed(1)} s |`,
        );
      }
      const times = (kind: Kind) => `${(results[kind].all.perSecond / results[kind].one.perSecond).toFixed(2)}× (${spread(results[kind].pairs)})`;
      console.log(
        `Every core against one process: console ${times("console")}, API ${times("api")} (aim at least 1.8× on 2 cores); the bare page of the same stack, the baseline of what this machine and stack scale to: ${times("bare")}. Load average ${os.loadavg()[0]!.toFixed(1)} at the end.`,
      );
    } finally {
      await Promise.all([one.stop(), all.stop()]);
    }
  } finally {
    await data.cleanup();
  }
}

await main();
