// Compiles the `ecfx` command (server/cli and what it imports from server/) to
// build/cli with esbuild, so that the command starts without compiling
// TypeScript. npm packages stay external; each sub-command is its own chunk,
// so `ecfx parse` never loads the database code.
//
//   node scripts/build-cli.mjs          build now
//   import { ensureCliBuilt } from …    build when missing or older than server/
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_ENTRY = path.join(ROOT, "build/cli/ecfx.js");
const SOURCES = path.join(ROOT, "server");

export async function buildCli() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: { ecfx: path.join(ROOT, "server/cli/ecfx.ts") },
    outdir: path.join(ROOT, "build/cli"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}

/** Newest modification time of the TypeScript sources under server/. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the command when it was never built or a source changed since. */
export async function ensureCliBuilt() {
  if (existsSync(CLI_ENTRY) && statSync(CLI_ENTRY).mtimeMs >= newestSource(SOURCES)) return;
  await buildCli();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
