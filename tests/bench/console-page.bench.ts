// The console's case list page on its own, quicker than `npm run bench`: the large seed on SQLite,
// the API's deep page (the one search the console page makes), then the console page beside its
// bare baseline (the same rows drawn by the plainest page of the stack), in one run.
// Run: npx tsx tests/bench/console-page.bench.ts [requests] [profile folder]
// With a profile folder, the console's processes write V8 CPU profiles there when they stop.
import { machine, machineLine, consolePageTable, terminalTable } from "./report";
import path from "node:path";
import { ROOT, prepareData, runSeed, startProduct } from "./product";
import { runApiSearches, runConsolePage } from "./search";

const REQUESTS = Number(process.argv[2] ?? 100);
const PROFILE_DIR = process.argv[3];

async function main(): Promise<void> {
  console.log(`Machine: ${machineLine(machine())}`);
  const data = await prepareData("sqlite");
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
      const results = [
        { backend: "sqlite" as const, summaries: [...api.summaries, pages.page.summary, pages.bare.summary], consolePages: pages, failures: [] },
      ];
      console.log(`\n${terminalTable(results)}\n\n${consolePageTable(results)}`);
    } finally {
      await product.stop();
    }
  } finally {
    await data.cleanup();
  }
}

main().then(
  () => process.stdout.write("", () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
