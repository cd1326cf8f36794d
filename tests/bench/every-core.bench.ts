// `npx tsx tests/bench/every-core.bench.ts [seconds]`
//
// Throughput of the console's case list page and of the API's case search on the large SQLite
// seed, with the console and the API in one process each (ECFX_WEB_CONCURRENCY=1) and with a
// process per core (the default). Closed loop: a fixed number of clients, each sending its next
// request when the last one is answered, for a fixed time; the ratio is the figure to read, as it
// holds across machines of different speed. The clients run on the same machine and take some of
// its CPU, so the ratio understates what separate client machines would see.
import os from "node:os";
import { CONSOLE_PAGE, apiToken, consoleCookie } from "./search";
import { freePort } from "../free-port";
import { answers, buildProduct, prepareData, runSeed, spawnProduct } from "./product";
import { machine, machineLine } from "./report";

const seconds = Number(process.argv[2] ?? 15);
const cores = os.availableParallelism();
const CLIENTS = 4 * cores;

interface Throughput {
  processes: number;
  consolePerSecond: number;
  apiPerSecond: number;
  startupMs: number;
}

/** Answers per second from `clients` loops of `request` over `ms` (after a short warm-up). */
async function closedLoop(request: () => Promise<boolean>, clients: number, ms: number): Promise<number> {
  const warmUntil = performance.now() + 2_000;
  while (performance.now() < warmUntil) await Promise.all(Array.from({ length: clients }, request));
  let answered = 0;
  let failed = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        if (await request()) answered++;
        else failed++;
      }
    }),
  );
  if (failed) throw new Error(`${failed} requests failed`);
  return answered / (ms / 1000);
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
  try {
    if (!(await answers(`${apiUrl}/api/v1/health`, product, 120_000)) || !(await answers(`${consoleUrl}/healthcheck`, product, 600_000))) {
      throw new Error(`the product did not start:\n${product.log().slice(-3000)}`);
    }
    const startupMs = performance.now() - started;
    const cookie = await consoleCookie(consoleUrl);
    const token = await apiToken(apiUrl);
    const consolePerSecond = await closedLoop(
      async () => {
        const res = await fetch(`${consoleUrl}${CONSOLE_PAGE}`, { headers: { cookie }, redirect: "manual" });
        await res.arrayBuffer();
        return res.status === 200;
      },
      CLIENTS,
      seconds * 1000,
    );
    let page = 0;
    const apiPerSecond = await closedLoop(
      async () => {
        page = (page + 37) % 1900;
        const res = await fetch(`${apiUrl}/api/v1/case/search?max=50&offset=${(page + 100) * 50}&sort=-case_number`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        return res.status === 200;
      },
      CLIENTS,
      seconds * 1000,
    );
    return { processes, consolePerSecond, apiPerSecond, startupMs };
  } finally {
    await product.stop();
  }
}

async function main(): Promise<void> {
  console.log(`Machine: ${machineLine(machine())}`);
  await buildProduct();
  const data = await prepareData("sqlite");
  try {
    await runSeed(data);
    const one = await measure(data, 1);
    const all = await measure(data, cores);
    const rows = [one, all].map(
      (t) => `| ${t.processes} | ${t.consolePerSecond.toFixed(1)} | ${t.apiPerSecond.toFixed(0)} | ${(t.startupMs / 1000).toFixed(1)} s |`,
    );
    console.log(
      `${CLIENTS} clients, ${seconds} s each, SQLite, 100,000 cases; console page ${CONSOLE_PAGE}, API case search pages 100-1990 sorted by -case_number.`,
    );
    console.log("| processes (console and API each) | console pages/s | API searches/s | start to first answer |");
    console.log("| --- | --- | --- | --- |");
    console.log(rows.join("\n"));
    console.log(
      `Every core against one process: console ${(all.consolePerSecond / one.consolePerSecond).toFixed(2)}×, API ${(all.apiPerSecond / one.apiPerSecond).toFixed(2)}× (aim at least 1.8× on 2 cores).`,
    );
  } finally {
    await data.cleanup();
  }
}

await main();
