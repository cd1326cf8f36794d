// Starts the whole product for the browser tests: one instance per worker (E2E_INSTANCES, one set
// of settings each, from playwright.config.ts), all at once, each on a fresh data folder. Says so
// on stdout (INSTANCES_READY) once every instance answers its health check; ends, and ends the
// run, when any of them stops.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { INSTANCES_READY } from "./helpers";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { ensureCliBuilt } from "../../scripts/build-cli.mjs";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { SERVER_ENTRY, ensureServerBuilt } from "../../scripts/build-server.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const instances = JSON.parse(process.env.E2E_INSTANCES ?? "[]") as Record<string, string>[];
if (instances.length === 0) throw new Error("E2E_INSTANCES must list the settings of at least one instance");

const healthcheck = (env: Record<string, string>) => `http://localhost:${env.PORT}/healthcheck`;
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (res) => res.ok,
    () => false,
  );

// A server left over on one of the ports would pass the health check in place of this run's.
for (const env of instances) {
  if (await answers(healthcheck(env))) throw new Error(`${healthcheck(env)} is already used: stop the server on port ${env.PORT} first`);
}

// Built once here, before any test runs the `ecfx` command: tests in parallel must not each build it.
await ensureCliBuilt();
// The compiled product, as `npm start` runs it: every instance's processes compiling the server
// with tsx at start was most of the start-up's CPU.
await ensureServerBuilt();

const children: ChildProcess[] = instances.map((env) => {
  const dir = env.ECFX_DATA_DIR;
  if (!dir || !dir.includes(".tmp")) throw new Error("ECFX_DATA_DIR must point into tests/.tmp for browser tests");
  fs.rmSync(path.resolve(root, dir), { recursive: true, force: true });
  const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: root, env: { ...process.env, ...env }, stdio: "inherit" });
  child.on("exit", (code, signal) => {
    console.error(`The product on port ${env.PORT} stopped (${signal ?? code}).`);
    stopAll(1);
  });
  return child;
});

function stopAll(code: number) {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}
process.on("SIGTERM", () => stopAll(0));
process.on("SIGINT", () => stopAll(0));

await Promise.all(
  instances.map(async (env) => {
    while (!(await answers(healthcheck(env)))) await new Promise((resolve) => setTimeout(resolve, 250));
  }),
);
console.log(INSTANCES_READY);
