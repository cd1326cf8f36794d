import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { buildConsoleIfNeeded } from "../../scripts/build-console";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { buildServer } from "../../scripts/build-server.mjs";
import { sqliteTemplateDir } from "./test-run";

const root = path.resolve(import.meta.dirname, "../..");
/** Longer than a console build on a busy machine; then the waiting file fails instead of hanging. */
const WAIT_MS = 600_000;
/** For the hook that calls buildProductOnce: the wait above and the build itself. */
export const BUILD_PRODUCT_MS = WAIT_MS + 60_000;

/**
 * Made once per test run under a lock (a folder: creating it is atomic): the first file to ask
 * makes it, the others wait for its mark. Both live in the run's own folder, removed at the run's
 * end (test-run.ts).
 */
async function once(name: string, make: () => Promise<void>): Promise<void> {
  const run = inject("ecfxTestRun");
  // Without the run's tag every run would share one mark and start a build made by an earlier one.
  if (!run) throw new Error("No test run tag: run the tests with `--config tests/vitest.config.ts` (`npm run test:unit -- <file>`).");
  const dir = sqliteTemplateDir(run);
  const made = path.join(dir, `${name}-built`);
  const lock = path.join(dir, `${name}-building`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const start = Date.now();
  while (!fs.existsSync(made)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() - start > WAIT_MS) throw new Error(`The ${name}'s build by another test file did not finish.`);
      await sleep(250);
      continue;
    }
    try {
      if (fs.existsSync(made)) break;
      await make();
      fs.writeFileSync(made, "");
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The compiled server (build/server), made once per test run for every file that starts the
 * product as a process, as `npm start` and the container run it: a few seconds, and each start
 * then costs about half the CPU of compiling the sources at start.
 */
export function buildServerOnce(): Promise<void> {
  return once("server", () => buildServer());
}

/** The compiled server and the console's build, for the files that start the console too. */
export async function buildProductOnce(): Promise<void> {
  await buildServerOnce();
  await once("console", async () => {
    buildConsoleIfNeeded(root);
  });
}
