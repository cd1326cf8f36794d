// Starts the whole product for the browser tests on a fresh data folder.
import fs from "node:fs";

const dir = process.env.ECFX_DATA_DIR;
if (!dir || !dir.includes(".tmp")) throw new Error("ECFX_DATA_DIR must point into tests/.tmp for browser tests");
fs.rmSync(dir, { recursive: true, force: true });
await import("../../server/main");
