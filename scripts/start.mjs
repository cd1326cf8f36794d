#!/usr/bin/env node
// `npm start`: runs the compiled product (build/server), compiling it first when it is missing
// or older than its sources. The console is built by the product itself when stale.
import { pathToFileURL } from "node:url";
import { SERVER_ENTRY, ensureServerBuilt } from "./build-server.mjs";

await ensureServerBuilt();
await import(pathToFileURL(SERVER_ENTRY).href);
