import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import { copyMonaco } from "../../scripts/copy-monaco";

// The API and the console start together on a fresh checkout, and each copies the editor.

let root = "";
afterEach(() => {
  vi.restoreAllMocks();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("a copy that finds another process's copy already in place keeps it and cleans up its own", () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "monaco-"));
  fs.writeFileSync(path.join(root, "package.json"), "{}");
  fs.symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"));
  const target = path.join(root, "public", "monaco");
  fs.mkdirSync(target, { recursive: true });

  const rename = fs.renameSync;
  vi.spyOn(fs, "renameSync").mockImplementationOnce((from, to) => {
    // The other process renames its copy in first.
    fs.mkdirSync(to, { recursive: true });
    fs.writeFileSync(path.join(String(to), "loader.js"), "// the other copy\n");
    rename(from, to);
  });

  expect(copyMonaco(root)).toBe(true);
  expect(fs.readFileSync(path.join(target, "vs", "loader.js"), "utf8")).toBe("// the other copy\n");
  expect(fs.readdirSync(target).sort()).toEqual(["VERSION", "vs"]);
  // The next start finds the copy in place.
  expect(copyMonaco(root)).toBe(false);
});
