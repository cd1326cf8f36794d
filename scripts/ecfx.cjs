#!/usr/bin/env node
// `npx ecfx …` in the checkout: runs the compiled command from build/cli, compiling it first when
// it is missing or older than its sources. CommonJS, so that `ecfx parse` never starts Node's ES
// module loader; the build script (and esbuild) load only when a build is needed.
"use strict";
const { CLI_ENTRY, PARSE_ENTRY, isCliStale } = require("./cli-freshness.cjs");

/**
 * `ecfx parse FILE` alone is over in a tenth of a second: V8's optimising and baseline compilers
 * would start (about 4 MB of memory, half of what the parse adds to the runtime) and win nothing
 * back, so they stay off. Batches keep them, where they pay. Set before the parser is loaded:
 * later, V8 no longer applies them to it.
 */
function tuneForOneParse(args) {
  if (args.filter((arg) => !arg.startsWith("-")).length === 1) require("node:v8").setFlagsFromString("--no-opt --no-sparkplug");
}

async function start() {
  if (isCliStale()) await (await import("./build-cli.mjs")).buildCli();
  if (process.argv[2] === "parse") {
    tuneForOneParse(process.argv.slice(3));
    require(PARSE_ENTRY);
  } else await import(require("node:url").pathToFileURL(CLI_ENTRY).href);
}

start().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
