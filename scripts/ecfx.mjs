#!/usr/bin/env node
// `npx ecfx …` in the checkout: runs the compiled command from build/cli,
// compiling it first when it is missing or older than the sources.
import { pathToFileURL } from "node:url";
import { CLI_ENTRY, ensureCliBuilt } from "./build-cli.mjs";

await ensureCliBuilt();
await import(pathToFileURL(CLI_ENTRY).href);
