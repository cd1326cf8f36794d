// Compiles the `ecfx` command (server/cli and what it imports from server/) to
// build/cli with esbuild, so that the command starts without compiling
// TypeScript. Each sub-command is its own chunk; `ecfx parse` is one CommonJS
// file of its own (parse.cjs), so it loads neither the database code nor Node's
// ES module loader. npm packages stay external, except the few small ones the
// parser uses, which are bundled: resolving and loading packages is most of a
// cold start. Minified: a third of the source to read and compile at start.
//
//   node scripts/build-cli.mjs          build now
//   import { ensureCliBuilt } from …    build when missing or older than one of its inputs
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import freshness from "./cli-freshness.cjs";
import { migrationList } from "./migration-list-plugin.mjs";

const { INPUTS, OUT_DIR, ROOT, isCliStale } = freshness;

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

/**
 * The parser uses htmlparser2's Tokenizer alone, but the package's index also re-exports DomUtils
 * as a namespace, which bundles domutils, dom-serializer and a second copy of `entities` (80 KB)
 * into `ecfx parse`. The parse bundle reads the Tokenizer's own module instead; a parser module
 * importing anything else from htmlparser2 fails this build rather than bundling it silently.
 */
const tokenizerOnly = {
  name: "htmlparser2-tokenizer-only",
  setup(build) {
    build.onResolve({ filter: /^htmlparser2$/ }, () => ({ path: "htmlparser2", namespace: "tokenizer-only" }));
    build.onLoad({ filter: /.*/, namespace: "tokenizer-only" }, () => ({
      // The package's export map names only its index; the Tokenizer sits beside it.
      contents: `export { default as Tokenizer } from ${JSON.stringify(fileURLToPath(new URL("Tokenizer.js", import.meta.resolve("htmlparser2"))))};`,
      resolveDir: ROOT,
    }));
  },
};

export async function buildCli() {
  const { build } = await import("esbuild");
  rmSync(OUT_DIR, { recursive: true, force: true });
  const common = {
    outdir: OUT_DIR,
    bundle: true,
    platform: "node",
    target: "node20",
    metafile: true,
    sourcemap: true,
    minify: true,
    logLevel: "warning",
    plugins: [migrationList, externalPackages],
  };
  const [commands, parse] = await Promise.all([
    build({ ...common, entryPoints: { ecfx: path.join(ROOT, "server/cli/ecfx.ts") }, splitting: true, format: "esm" }),
    build({
      ...common,
      entryPoints: { parse: path.join(ROOT, "server/cli/parse-alone.ts") },
      format: "cjs",
      outExtension: { ".js": ".cjs" },
      plugins: [tokenizerOnly, ...common.plugins],
    }),
  ]);
  const result = { metafile: { inputs: { ...commands.metafile.inputs, ...parse.metafile.inputs } } };
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
