import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COPY_NODE_OPTIONS } from "../../server/lib/server-copies";
import { BENCH_PASSWORD } from "../bench/product";
import { consoleCookie } from "../bench/search";
import { buildProductOnce } from "./build-once";
import { type Product, freePort, killAllGroups, killGroup, spawnProduct } from "./product-processes";

// The API on every core (ECFX_WEB_CONCURRENCY): copies of it share one port, each answers, and a
// copy that dies is replaced while the others go on answering. A process with the console role as
// well serves both itself, and so do its copies.

/** The process ids of `pid`'s Node children: its copies, not the esbuild service tsx starts beside them. */
function childrenOf(pid: number): number[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    // ps ends with status 1 when the process has no children
  }
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, command]) => command === "node")
    .map(([id]) => Number(id));
}

interface TcpSocket {
  local: number;
  remote: number;
  listening: boolean;
}

/** The IPv4 TCP sockets `pid` holds, read from /proc: its file descriptors' socket inodes in the kernel's table. */
function tcpSocketsOf(pid: number): TcpSocket[] {
  const inodes = new Set<string>();
  const targetOf = (fd: string) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return ""; // closed meanwhile
    }
  };
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const inode = /^socket:\[(\d+)\]$/.exec(targetOf(fd))?.[1];
    if (inode) inodes.add(inode);
  }
  const port = (address: string) => parseInt(address.split(":")[1]!, 16);
  return fs
    .readFileSync(`/proc/${pid}/net/tcp`, "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 9 && inodes.has(fields[9]!))
    .map((fields) => ({ local: port(fields[1]!), remote: port(fields[2]!), listening: fields[3] === "0A" }));
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
      // The tests below sign in to the demo firm this one creates in the shared data folder.
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
