#!/usr/bin/env node
// `npx ecfx …` in the checkout: runs the compiled command from build/cli, compiling it first when
// it is missing or older than its sources. The build script (and esbuild) load only then.
import { pathToFileURL } from "node:url";
import { CLI_ENTRY, isCliStale } from "./cli-freshness.mjs";

if (isCliStale()) await (await import("./build-cli.mjs")).buildCli();
await import(pathToFileURL(CLI_ENTRY).href);
