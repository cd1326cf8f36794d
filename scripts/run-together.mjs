// Runs npm scripts at the same time and fails when any fails: `npm test`'s checks (lint and
// typecheck) are each one process on one core, so side by side they take the time of the longer.
// Each script's output is printed whole when it ends, so the two never interleave.
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const child = spawn("npm", ["run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"] });
      const output = [];
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
      child.on("close", (code, signal) => {
        process.stdout.write(`> ${name}: ${code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`}\n`);
        process.stdout.write(Buffer.concat(output));
        resolve(code === 0);
      });
    }),
);
const passed = await Promise.all(runs);
process.exitCode = passed.every(Boolean) ? 0 : 1;
