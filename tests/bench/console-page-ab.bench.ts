// The console's case list page of two checkouts side by side on one large SQLite seed, their
// requests interleaved (alternating which goes first) so that both meet the same load: on a
// shared machine two runs one after the other see different loads and their CPU figures differ by
// more than most changes. "Before" is another checkout of the product with its own node_modules
// (e.g. `git worktree add ../before main`, node_modules hard-linked); "after" is this one.
// Run: npx tsx tests/bench/console-page-ab.bench.ts <before checkout> [requests] [dashboard[:notices]]
// With "dashboard", the page is the dashboard for "last year" over that many notices (200,000 by
// default, written as dashboard.bench.ts writes them, its cache off) instead of the case list.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type RunningProduct, prepareData, runSeed, startProduct } from "./product";
import type * as ProductModule from "./product";
import { CONSOLE_PAGE, consoleCookie } from "./search";
import { loadRows } from "./dashboard-data";
import { runScript } from "./run-script";

const [beforeDir, requests, pageArg] = process.argv.slice(2);
const REQUESTS = Number(requests ?? 300);
const DASHBOARD = pageArg?.startsWith("dashboard") ?? false;
const NOTICES = Number(pageArg?.split(":")[1] ?? 200_000);
const PAGE = DASHBOARD ? "/dashboard?period=last_year" : CONSOLE_PAGE;
const WARM_UP = 20;

interface Side {
  name: string;
  product: RunningProduct;
  cookie: string;
  ms: number[];
  bytes: number;
}

const loadAverage = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

async function fetchPage(side: Side): Promise<void> {
  const started = performance.now();
  // The default Accept-Encoding (gzip): compressing is part of a page's cost, as for a browser.
  const response = await fetch(`${side.product.consoleUrl}${PAGE}`, { headers: { cookie: side.cookie } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${side.name}: the page answered ${response.status}`);
  side.ms.push(performance.now() - started);
  side.bytes = Buffer.byteLength(html);
}

async function main(): Promise<void> {
  if (!beforeDir) throw new Error("usage: console-page-ab.bench.ts <before checkout> [requests] [dashboard[:notices]]");
  // The other checkout's own product module, so that it builds and starts its own code.
  const before = (await import(pathToFileURL(path.resolve(beforeDir, "tests/bench/product.ts")).href)) as typeof ProductModule;
  const data = await prepareData("sqlite");
  try {
    if (DASHBOARD) Object.assign(data.env, { ECFX_DEMO_DATA: "false", ECFX_DASHBOARD_CACHE_SECONDS: "0" });
    else await runSeed(data);
    const products = [await before.startProduct(data), await startProduct(data)];
    if (DASHBOARD) await loadRows(data, NOTICES);
    try {
      const sides: Side[] = [];
      for (const [i, product] of products.entries())
        sides.push({ name: i === 0 ? "before" : "after", product, cookie: await consoleCookie(product.consoleUrl), ms: [], bytes: 0 });
      for (let i = 0; i < WARM_UP; i++) for (const side of sides) await fetchPage(side);
      const startLoad = loadAverage();
      // Whole-run CPU per process group: work done between requests (garbage collection) counts too.
      const cpuAtStart = sides.map((s) => ({ console: s.product.consoleCpuMs(), api: s.product.apiCpuMs() }));
      for (let i = 0; i < REQUESTS; i++) for (const side of i % 2 ? [...sides].reverse() : sides) await fetchPage(side);
      console.log(`${PAGE}, ${REQUESTS} requests each, interleaved; load average ${startLoad} at start, ${loadAverage()} at end`);
      console.log("build   console CPU ms/page  API CPU ms/page  HTML KB  p50 ms  p95 ms  p99 ms (wall)");
      sides.forEach((side, i) => {
        const consoleCpu = (side.product.consoleCpuMs() - cpuAtStart[i]!.console) / REQUESTS;
        const apiCpu = (side.product.apiCpuMs() - cpuAtStart[i]!.api) / REQUESTS;
        const cells = [consoleCpu, apiCpu, side.bytes / 1024, quantile(side.ms, 0.5), quantile(side.ms, 0.95), quantile(side.ms, 0.99)].map((n) =>
          n.toFixed(1),
        );
        console.log(`${side.name.padEnd(8)}${cells.join("  ")}`);
      });
    } finally {
      await Promise.all(products.map((p) => p.stop()));
    }
  } finally {
    await data.cleanup();
  }
}

runScript(main);
