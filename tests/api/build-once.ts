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
 * The compiled product (build/server) and the console's build, made once per test run for the
 * files that run the product as `npm start` does: each used to build the server itself, at the
 * same time as the others, over the files another was starting. The first file to ask builds
 * under a lock (a folder: creating it is atomic); the others wait for its mark. Both live in the
 * run's own folder, removed at the run's end (test-run.ts).
 */
export async function buildProductOnce(): Promise<void> {
  const dir = sqliteTemplateDir(inject("ecfxTestRun"));
  const built = path.join(dir, "product-built");
  const lock = path.join(dir, "product-building");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const start = Date.now();
  while (!fs.existsSync(built)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() - start > WAIT_MS) throw new Error("The product's build by another test file did not finish.");
      await sleep(250);
      continue;
    }
    try {
      if (fs.existsSync(built)) break;
      buildConsoleIfNeeded(root);
      await buildServer();
      fs.writeFileSync(built, "");
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}
