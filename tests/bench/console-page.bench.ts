// The console's case list page on its own, quicker than `npm run bench`: the large seed on SQLite
// (or PostgreSQL), the API's three searches (the deep page is the one the console page makes),
// then the console page beside its bare baseline (the same rows drawn by the plainest page of the
// stack), in one run.
// Run: npx tsx tests/bench/console-page.bench.ts [requests] [profile folder] [sqlite|postgres]
// With a profile folder, the console's processes write V8 CPU profiles there when they stop.
import { machine, machineLine, consolePageTable, terminalTable } from "./report";
import path from "node:path";
import { type BackendName, ROOT, findPostgres, prepareData, runSeed, startProduct } from "./product";
import { runApiSearches, runConsolePage } from "./search";
import { runScript } from "./run-script";

const BACKENDS: readonly string[] = ["sqlite", "postgres"];
const BACKEND = (process.argv.slice(2).find((arg) => BACKENDS.includes(arg)) ?? "sqlite") as BackendName;
const [requests, profileDir] = process.argv.slice(2).filter((arg) => !BACKENDS.includes(arg));
const REQUESTS = Number(requests ?? 100);
const PROFILE_DIR = profileDir;

async function main(): Promise<void> {
  console.log(`Machine: ${machineLine(machine())}`);
  let pgUrl: string | undefined;
  if (BACKEND === "postgres") {
    const server = await findPostgres();
    if ("reason" in server) throw new Error(`PostgreSQL: ${server.reason}`);
    pgUrl = server.url;
  }
  const data = await prepareData(BACKEND, pgUrl);
  try {
    await runSeed(data);
    if (PROFILE_DIR)
      // One console process, so that one profile holds every page.
      Object.assign(data.env, {
        NODE_OPTIONS: `--import ${path.join(ROOT, "tests/bench/cpu-profile.mjs")}`,
        ECFX_CPU_PROFILE_DIR: PROFILE_DIR,
        ECFX_WEB_CONCURRENCY: "1",
      });
    const product = await startProduct(data);
    try {
      const api = await runApiSearches(product.apiUrl, REQUESTS, product.cpuMs);
      const pages = await runConsolePage(product, REQUESTS);
      const results = [{ backend: BACKEND, summaries: [...api.summaries, pages.page.summary, pages.bare.summary], consolePages: pages, failures: [] }];
      console.log(`\n${terminalTable(results)}\n\n${consolePageTable(results)}`);
    } finally {
      await product.stop();
    }
  } finally {
    await data.cleanup();
  }
}

runScript(main);
