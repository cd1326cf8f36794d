import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_NODE_OPTIONS } from "../../server/lib/server-copies";
import { BENCH_PASSWORD } from "../bench/product";
import { BUILD_PRODUCT_MS, buildServerOnce } from "./build-once";
import { childrenOf, eventually } from "./process-tree";
import { type Product, freePort, killAllGroups, killGroup, spawnProduct } from "./product-processes";

// The API on every core (ECFX_WEB_CONCURRENCY): copies of it share one port, each answers, and a
// copy that dies is replaced while the others go on answering. The console beside the API on
// every core: every-core-console.test.ts, a file of its own so the two run side by side.

describe("the API on every core", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-cores-"));
  let product: Product | undefined;

  beforeAll(buildServerOnce, BUILD_PRODUCT_MS);

  afterAll(async () => {
    await killGroup(product);
    killAllGroups();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers from three processes on one port and replaces one that dies", async () => {
    const port = await freePort();
    product = spawnProduct({
      ECFX_DATA_DIR: dataDir,
      ECFX_ROLES: "api",
      ECFX_API_PORT: String(port),
      ECFX_WEB_CONCURRENCY: "3",
      ECFX_DEMO: "true",
      ECFX_DEMO_DATA: "false",
      ECFX_DEMO_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: "info",
    });
    await product.waitFor("ECFX API on", 120_000);
    const health = async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.status;

    const copies = await eventually(
      () => childrenOf(product!.child.pid!),
      (pids) => pids.length === 3,
      90_000,
    );
    expect(copies).toHaveLength(3);
    // A copy per core collects garbage on its own thread (decision 079) in a larger young generation (083).
    const commandLine = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    // The starting process's own Node options come after the copies' (V8 takes the last of a
    // repeated option, so an operator's wins).
    const primary = commandLine(product.child.pid!);
    const ownOptions = primary.slice(1, primary.indexOf("server/main.ts"));
    for (const pid of copies) {
      const copy = commandLine(pid);
      expect(copy).toEqual(expect.arrayContaining(["--single-threaded-gc", "--max-semi-space-size=32"]));
      expect(copy.slice(1, 1 + COPY_NODE_OPTIONS.length + ownOptions.length)).toEqual([...COPY_NODE_OPTIONS, ...ownOptions]);
    }
    // Each copy says when it listens: all three do before one is killed.
    const listening = () => product!.output().split("ECFX API on").length - 1;
    expect(
      await eventually(
        async () => listening(),
        (n) => n >= 3,
        90_000,
      ),
    ).toBe(3);
    expect(await health()).toBe(200);

    const [victim] = copies;
    process.kill(victim!, "SIGKILL");
    const after = await eventually(
      () => childrenOf(product!.child.pid!),
      (pids) => pids.length === 3 && !pids.includes(victim!),
      90_000,
    );
    expect(after).toHaveLength(3);
    expect(after).not.toContain(victim);
    await product.waitFor(`API process ${victim} stopped (SIGKILL); starting another.`, 30_000);
    // The replacement says it listens like the first three did; from then on every request in a
    // row is answered by the three copies sharing the port.
    expect(
      await eventually(
        async () => listening(),
        (n) => n >= 4,
        90_000,
      ),
    ).toBeGreaterThanOrEqual(4);
    const statuses = await Promise.all(Array.from({ length: 30 }, health));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 180_000);
});
