#!/usr/bin/env node
// `npm start`: runs the compiled product (build/server), compiling it first when it is missing
// or older than its sources. The console is built by the product itself when stale.
import { pathToFileURL } from "node:url";
import { SERVER_ENTRY, ensureServerBuilt } from "./build-server.mjs";

// A developer's machine: case retrieve is on unless the environment says otherwise (the container's is off).
process.env.ECFX_CASE_RETRIEVE ??= "true";
// A person reads this terminal: readable log lines (the container logs JSON).
process.env.ECFX_LOG_FORMAT ??= "pretty";
await ensureServerBuilt();
await import(pathToFileURL(SERVER_ENTRY).href);
