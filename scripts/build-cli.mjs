// Compiles the `ecfx` command (server/cli and what it imports from server/) to
// build/cli with esbuild, so that the command starts without compiling
// TypeScript. Each sub-command is its own chunk, so `ecfx parse` never loads the
// database code. npm packages stay external, except the few small ones the
// parser uses, which are bundled: resolving and loading packages is most of a
// cold start.
//
//   node scripts/build-cli.mjs          build now
//   import { ensureCliBuilt } from …    build when missing or older than one of its inputs
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { INPUTS, OUT_DIR, ROOT, isCliStale } from "./cli-freshness.mjs";
import { migrationList } from "./migration-list-plugin.mjs";

export { ROOT };
const SELF = fileURLToPath(import.meta.url);

/** Packages compiled into the command rather than loaded from node_modules at start-up. */
const BUNDLED = new Set(["htmlparser2", "entities", "domhandler", "domutils", "domelementtype", "dom-serializer", "nodemailer"]);

const packageName = (specifier) => specifier.split("/", specifier.startsWith("@") ? 2 : 1).join("/");

/** Keeps every npm package external except those in BUNDLED. */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || BUNDLED.has(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildCli() {
  const { build } = await import("esbuild");
  rmSync(OUT_DIR, { recursive: true, force: true });
  const result = await build({
    entryPoints: { ecfx: path.join(ROOT, "server/cli/ecfx.ts") },
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    sourcemap: true,
    logLevel: "warning",
    plugins: [migrationList, externalPackages],
  });
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes(":"))
    .map((input) => path.relative(ROOT, path.resolve(ROOT, input)));
  // Bundled packages change with the lock file; it stands for their files. The folders are
  // checked too: a file added next to the inputs (a new migration) changes its folder's time.
  const sources = files.filter((file) => !file.split(path.sep).includes("node_modules"));
  const inputs = [...sources, ...new Set(sources.map((file) => path.dirname(file))), "package-lock.json"];
  writeFileSync(INPUTS, `${JSON.stringify(inputs)}\n`);
}

/** Newest modification time of the TypeScript sources under server/. */
export function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the command when it was never built or one of its inputs changed since. */
export async function ensureCliBuilt() {
  if (isCliStale()) await buildCli();
}

if (process.argv[1] && path.resolve(process.argv[1]) === SELF) {
  await buildCli();
}
