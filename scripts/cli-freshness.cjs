// Whether the compiled `ecfx` command (build/cli) is current: missing, or older than the build
// script or one of the files its last build read (build/cli/inputs.json), means it must be built.
// Kept apart from the build itself, in CommonJS and to `node:fs` alone: `ecfx` runs this check on
// every start, and each module loaded before the command adds to its start-up time and memory.
"use strict";
const { readFileSync, statSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, "build/cli");
/** Every command but `parse` (ES modules, one chunk per command). */
const CLI_ENTRY = path.join(OUT_DIR, "ecfx.js");
/** `ecfx parse` alone, one CommonJS file. */
const PARSE_ENTRY = path.join(OUT_DIR, "parse.cjs");
/** The files the last build read, so that the check looks at those and nothing else. */
const INPUTS = path.join(OUT_DIR, "inputs.json");
const BUILD_SCRIPTS = ["scripts/build-cli.mjs", "scripts/cli-freshness.cjs", "scripts/migration-list-plugin.mjs"];

/** True when the build is missing, or a build script or one of the files the build read changed since. */
function isCliStale() {
  let built;
  let inputs;
  try {
    built = Math.min(statSync(CLI_ENTRY).mtimeMs, statSync(PARSE_ENTRY).mtimeMs);
    inputs = JSON.parse(readFileSync(INPUTS, "utf8"));
  } catch {
    return true;
  }
  // Paths are joined by hand: path.join over a hundred paths is hot enough for V8 to start its
  // optimising compiler, 4 MB of memory that `ecfx parse` otherwise never needs.
  try {
    for (const input of [...BUILD_SCRIPTS, ...inputs]) if (statSync(`${ROOT}${path.sep}${input}`).mtimeMs > built) return true;
  } catch {
    return true;
  }
  return false;
}

module.exports = { ROOT, OUT_DIR, CLI_ENTRY, PARSE_ENTRY, INPUTS, isCliStale };
