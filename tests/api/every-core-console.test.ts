import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BENCH_PASSWORD } from "../bench/product";
import { consoleCookie } from "../bench/search";
import { buildProductOnce } from "./build-once";
import { childrenOf, eventually, tcpSocketsOf } from "./process-tree";
import { type Product, freePort, killAllGroups, killGroup, spawnProduct } from "./product-processes";

// A process with the console role as well as the API's serves both itself, and so do its copies
// on every core (ECFX_WEB_CONCURRENCY).

describe("the console and the API on every core", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-cores-console-"));
  let product: Product | undefined;

  afterAll(async () => {
    await killGroup(product);
    killAllGroups();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([1, 2])(
    "serves the console and the API from %i process(es), each serving both",
    async (processes) => {
      await killGroup(product);
      // The console's build, made once for the run rather than by this product at its start.
      await buildProductOnce();
      const [port, apiPort] = [await freePort(), await freePort()];
      product = spawnProduct({
        ECFX_DATA_DIR: dataDir,
        ECFX_ROLES: "console,api",
        PORT: String(port),
        ECFX_API_PORT: String(apiPort),
        ECFX_HOST: "127.0.0.1",
        ECFX_WEB_CONCURRENCY: String(processes),
        ECFX_DEMO: "true",
        ECFX_DEMO_DATA: "false",
        ECFX_DEMO_PASSWORD: BENCH_PASSWORD,
        LOG_LEVEL: "info",
      });
      const consoleUrl = `http://127.0.0.1:${port}`;
      await product.waitFor("ECFX console on", 600_000);
      // One process: no console process beside it. Two: two copies, and the console's port answers
      // only once they listen (each says so as the API does).
      const copies = await eventually(
        () => childrenOf(product!.child.pid!),
        (pids) => pids.length === (processes === 1 ? 0 : processes),
        90_000,
      );
      expect(copies).toHaveLength(processes === 1 ? 0 : processes);
      expect(
        await eventually(
          () => product!.output().split("ECFX API on").length - 1,
          (n) => n >= processes,
          90_000,
        ),
      ).toBe(processes);
      const cookie = await consoleCookie(consoleUrl);
      // The case list asks the API: every answer a 200 page, from whichever copy took it.
      const pages = await Promise.all(
        Array.from({ length: 6 }, () => fetch(`${consoleUrl}/cases`, { headers: { cookie }, redirect: "manual" }).then((res) => res.status)),
      );
      expect(pages).toEqual(Array(6).fill(200));
      expect((await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`)).status).toBe(200);
      // Each copy's console asks its own API, on a loopback port only that copy listens on, never
      // through the shared port (decision 084).
      for (const pid of copies) {
        const sockets = tcpSocketsOf(pid);
        const ownPorts = sockets.filter((socket) => socket.listening && ![port, apiPort].includes(socket.local)).map((socket) => socket.local);
        expect(ownPorts).toHaveLength(1);
        expect((await fetch(`http://127.0.0.1:${ownPorts[0]}/api/v1/health`)).status).toBe(200);
        const calls = sockets.filter((socket) => !socket.listening && [apiPort, ownPorts[0]].includes(socket.remote));
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.map((socket) => socket.remote)).toEqual(calls.map(() => ownPorts[0]));
      }
    },
    700_000,
  );
});
