// Compiles the product's processes (server/main.ts and the console's server) to build/server
// with esbuild, so that `npm start` and the container run JavaScript and compile nothing at
// start-up. npm packages stay external; the console itself is built by `remix build`.
//
//   node scripts/build-server.mjs       build now
//   import { ensureServerBuilt } from … build when missing or older than the sources
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, newestSource } from "./build-cli.mjs";
import { migrationList } from "./migration-list-plugin.mjs";

export const SERVER_ENTRY = path.join(ROOT, "build/server/main.js");
/** What the compiled server is made of: server/, and app/common/ and proto/ which both sides share. */
const SOURCES = [path.join(ROOT, "server"), path.join(ROOT, "app/common"), path.join(ROOT, "proto"), path.join(ROOT, "scripts")];

export async function buildServer() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: { main: path.join(ROOT, "server/main.ts"), "console-serve": path.join(ROOT, "server/console-host/serve.ts") },
    outdir: path.join(ROOT, "build/server"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    plugins: [migrationList],
  });
}

/** Builds the server when it was never built or a source changed since. */
export async function ensureServerBuilt() {
  if (existsSync(SERVER_ENTRY) && statSync(SERVER_ENTRY).mtimeMs >= Math.max(...SOURCES.map(newestSource))) return;
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
