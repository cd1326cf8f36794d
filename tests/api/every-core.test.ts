import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Product, freePort, killAllGroups, killGroup, spawnProduct } from "./product-processes";

// The API on every core (ECFX_WEB_CONCURRENCY): copies of it share one port, each answers, and a
// copy that dies is replaced while the others go on answering.

/** The process ids of `pid`'s Node children: its copies, not the esbuild service tsx starts beside them. */
function childrenOf(pid: number): number[] {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, command]) => command === "node")
    .map(([id]) => Number(id));
}

async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the API on every core", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-cores-"));
  let product: Product | undefined;

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
      LOG_LEVEL: "silent",
    });
    await product.waitFor("ECFX API on", 120_000);
    const health = async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.status;

    const copies = await eventually(
      () => childrenOf(product!.child.pid!),
      (pids) => pids.length === 3,
      90_000,
    );
    expect(copies).toHaveLength(3);
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
