// `npx tsx tests/bench/every-core.bench.ts [seconds] [warm-up seconds]`
//
// Throughput of the console's case list page and of the API's case search on the large SQLite
// seed: ONE process serving both the console and the API (ECFX_ROLES=console,api,
// ECFX_WEB_CONCURRENCY=1) against a process per core, each serving both (the default). Closed loop:
// a fixed number of clients, each sending its next request when the last one is answered, for a
// fixed time. The clients run on the same machine: they are plain node:http requests over kept-alive
// connections, so that they take little, and the CPU they take is measured and reported with the
// figures (its share of the machine is capacity the product did not have), never left out.
import http from "node:http";
import os from "node:os";
import { CONSOLE_PAGE, apiToken, consoleCookie } from "./search";
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

interface Loop {
  perSecond: number;
  /** CPU of the load generator (this process) per answer, ms. */
  clientCpuMs: number;
  /** CPU of the product's processes per answer, ms. */
  productCpuMs: number;
  /** The load generator's share of the machine's CPU over the run. */
  clientShare: number;
}

interface Throughput {
  processes: number;
  console: Loop;
  api: Loop;
  startupMs: number;
}

/** Where a GET goes: built once, so the load generator spends its CPU on requests, not on URLs. */
interface Target {
  host: string;
  port: number;
  path: string;
}

const targetOf = (url: URL): Target => ({ host: url.hostname, port: Number(url.port), path: `${url.pathname}${url.search}` });

/** One GET over the kept-alive agent; true on a 200, the body read to its end and dropped. */
function get(agent: http.Agent, target: Target, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ ...target, agent, headers }, (res) => {
      res.on("end", () => resolve(res.statusCode === 200));
      res.on("error", () => resolve(false));
      res.resume();
    });
    req.on("error", () => resolve(false));
  });
}

/** Answers per second from `clients` loops of `request` over `ms` (after `warmUpSeconds` of the same), with the CPU both sides used. */
async function closedLoop(request: () => Promise<boolean>, productCpuMs: () => number, clients: number, ms: number): Promise<Loop> {
  const warmUntil = performance.now() + warmUpSeconds * 1000;
  while (performance.now() < warmUntil) await Promise.all(Array.from({ length: clients }, request));
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
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(clientBefore);
  const clientMs = (used.user + used.system) / 1000;
  if (failed) throw new Error(`${failed} requests failed`);
  return {
    perSecond: answered / (elapsed / 1000),
    clientCpuMs: clientMs / answered,
    productCpuMs: (productCpuMs() - productBefore) / answered,
    clientShare: clientMs / (elapsed * cores),
  };
}

async function measure(data: Awaited<ReturnType<typeof prepareData>>, processes: number): Promise<Throughput> {
  const [port, apiPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const product = spawnProduct(data, {
    ECFX_ROLES: "console,api",
    PORT: String(port),
    ECFX_API_PORT: String(apiPort),
    ECFX_HOST: "127.0.0.1",
    ECFX_WEB_CONCURRENCY: String(processes),
  });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const consoleUrl = `http://127.0.0.1:${port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    if (!(await answers(`${apiUrl}/api/v1/health`, product, 120_000)) || !(await answers(`${consoleUrl}/healthcheck`, product, 600_000))) {
      throw new Error(`the product did not start:\n${product.log().slice(-3000)}`);
    }
    const startupMs = performance.now() - started;
    const cpu = productCpu(product.child.pid!, data);
    const cookie = await consoleCookie(consoleUrl);
    const token = await apiToken(apiUrl);
    const page = targetOf(new URL(`${consoleUrl}${CONSOLE_PAGE}`));
    const consoleLoop = await closedLoop(() => get(agent, page, { cookie }), cpu, CLIENTS, seconds * 1000);
    const searches = Array.from({ length: 1900 }, (_, n) =>
      targetOf(new URL(`${apiUrl}/api/v1/case/search?max=50&offset=${(n + 100) * 50}&sort=-case_number`)),
    );
    const authorization = { authorization: `Bearer ${token}` };
    let n = 0;
    const apiLoop = await closedLoop(
      () => {
        n = (n + 37) % searches.length;
        return get(agent, searches[n]!, authorization);
      },
      cpu,
      CLIENTS,
      seconds * 1000,
    );
    return { processes, console: consoleLoop, api: apiLoop, startupMs };
  } finally {
    agent.destroy();
    await product.stop();
  }
}

// The cores the product kept busy tell a product that scales from one that got more of a machine
// other work shares: two processes are offered two cores, one process one.
const row = (t: Throughput, what: "console" | "api") => {
  const loop = t[what];
  return `${loop.perSecond.toFixed(what === "console" ? 1 : 0)} (client ${loop.clientCpuMs.toFixed(2)} ms, ${(100 * loop.clientShare).toFixed(0)} % of the machine; product ${loop.productCpuMs.toFixed(1)} ms, ${((loop.perSecond * loop.productCpuMs) / 1000).toFixed(2)} cores busy)`;
};

async function main(): Promise<void> {
  console.log(`Machine: ${machineLine(machine())}`);
  await buildProduct();
  const data = await prepareData("sqlite");
  try {
    await runSeed(data);
    const one = await measure(data, 1);
    const all = await measure(data, cores);
    console.log(
      `${CLIENTS} clients (node:http, kept-alive), ${seconds} s each after ${warmUpSeconds} s of warm-up, SQLite, 100,000 cases; console page ${CONSOLE_PAGE}, API case search pages 100-1990 sorted by -case_number. In brackets: CPU per answer of the load generator and its share of the machine; of the product, and the cores it kept busy.`,
    );
    console.log("| processes (each serving the console and the API) | console pages/s | API searches/s | start to first answer |");
    console.log("| --- | --- | --- | --- |");
    for (const t of [one, all]) console.log(`| ${t.processes} | ${row(t, "console")} | ${row(t, "api")} | ${(t.startupMs / 1000).toFixed(1)} s |`);
    console.log(
      `Every core against one process: console ${(all.console.perSecond / one.console.perSecond).toFixed(2)}×, API ${(all.api.perSecond / one.api.perSecond).toFixed(2)}× (aim at least 1.8× on 2 cores); load average ${os.loadavg()[0]!.toFixed(1)} at the end.`,
    );
  } finally {
    await data.cleanup();
  }
}

await main();
