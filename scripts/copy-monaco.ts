import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The template editor loads Monaco from the console's own /monaco/vs, never from a CDN: this
// copies monaco-editor/min/vs to public/monaco/vs. Run by `npm run build` and by the console
// build at start; it does nothing when the copy is already of the installed version.

/** The installed monaco-editor folder; its exports map hides package.json, so walk up from the entry. */
function monacoPackageDir(root: string): string {
  let dir = path.dirname(createRequire(path.join(root, "package.json")).resolve("monaco-editor"));
  while (!fs.existsSync(path.join(dir, "package.json")) || !/[\\/]monaco-editor$/.test(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("monaco-editor is not installed: run npm ci.");
    dir = parent;
  }
  return dir;
}

/** Copies Monaco into public/monaco/vs when missing or of another version; true when it copied. */
export function copyMonaco(root: string): boolean {
  const packageDir = monacoPackageDir(root);
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  const target = path.join(root, "public", "monaco");
  const marker = path.join(target, "VERSION");
  const current = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").trim() : null;
  if (current === version && fs.existsSync(path.join(target, "vs", "loader.js"))) return false;

  // Copied beside and renamed into place, so a console never serves a half-copied editor.
  const staging = path.join(target, `.vs-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.cpSync(path.join(packageDir, "min", "vs"), staging, { recursive: true });
  const vs = path.join(target, "vs");
  try {
    // Another process may be putting its copy in place at this moment (ENOTEMPTY): then the
    // rename below fails too and that copy serves.
    fs.rmSync(vs, { recursive: true, force: true });
    fs.renameSync(staging, vs);
  } catch (error) {
    // Processes starting together on a fresh checkout each copy; the first one in place serves.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(vs, "loader.js"))) throw error;
  }
  fs.writeFileSync(marker, `${version}\n`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = process.cwd();
  console.log(copyMonaco(root) ? "Monaco copied to public/monaco/vs." : "Monaco in public/monaco/vs is up to date.");
}
