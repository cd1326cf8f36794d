import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { copyMonaco } from "./copy-monaco";

// The console's build (`remix build` into build/ and public/build/) when it is missing or older
// than its sources: run by the product at start, by the tests before they start compiled products
// and by `npm run test:e2e`, so that one `npm test` builds the console at most once.
//
//   npx tsx scripts/build-console.ts    build when stale

/** The newest modification time under a folder. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the console when build/index.js is missing or older than app/ or locales/; true when it built. */
export function buildConsoleIfNeeded(root: string, onBuild: () => void = () => undefined): boolean {
  // The template editor's Monaco is served from public/monaco (no CDN); cheap when already there.
  copyMonaco(root);
  const output = path.join(root, "build", "index.js");
  const sources = ["app", "locales"].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
  const stale = !fs.existsSync(output) || sources.some((d) => newestMtime(d) > fs.statSync(output).mtimeMs);
  if (!stale) return false;
  onBuild();
  // As the product runs it, whoever asks: a build under Vitest's NODE_ENV=test is not a production build.
  const result = spawnSync(path.join(root, "node_modules", ".bin", "remix"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("The console build failed.");
  return true;
}

// Run as a command; by name, since bundled into the compiled server this module's URL is main.js's.
if (process.argv[1] && path.basename(process.argv[1]) === "build-console.ts") {
  buildConsoleIfNeeded(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
}
