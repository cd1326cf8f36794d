import fs from "node:fs";
import path from "node:path";

// The console is built by `remix build` into build/index.js; the product builds it at start when
// it is missing or older than its sources (app/ and locales/).

/** The newest modification time under a folder. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether the console's build under root is missing or older than one of its sources. */
export function consoleBuildStale(root: string): boolean {
  const output = path.join(root, "build", "index.js");
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return ["app", "locales"].some((d) => fs.existsSync(path.join(root, d)) && newestMtime(path.join(root, d)) > built);
}
