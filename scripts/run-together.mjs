// Runs npm scripts at the same time and fails when any fails: `npm test` runs the lint and the
// typecheck (one process on one core each) beside the API tests, which mostly wait on servers,
// processes and the database. The first script's output streams as it comes; each other's is
// printed whole when it ends, so no two interleave within a line of theirs.
import { spawn } from "node:child_process";

const [live, ...buffered] = process.argv.slice(2);
function run(name, stream) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", name], { stdio: ["ignore", stream ? "inherit" : "pipe", stream ? "inherit" : "pipe"] });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) => {
      process.stdout.write(`> ${name}: ${code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}
const passed = await Promise.all([run(live, true), ...buffered.map((name) => run(name, false))]);
process.exitCode = passed.every(Boolean) ? 0 : 1;
