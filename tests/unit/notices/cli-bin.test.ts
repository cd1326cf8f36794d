// The `ecfx` bin entry: plain node runs the compiled command (built on first
// use), with no TypeScript loader, and prints the same parse as the library.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goldShapeOf, parseNoticeEmail } from "../../../server/notices";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const packageJson = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { bin?: Record<string, string> };

describe("ecfx bin", () => {
  it("is declared in package.json and runs compiled JavaScript with plain node", async () => {
    const bin = packageJson.bin?.ecfx;
    expect(bin).toBeTruthy();
    const file = path.join(projectRoot, "tests/fixtures/notices/nef-jpml-mdl-members.eml");
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(projectRoot, bin ?? ""), "parse", file, "--json"], {
      cwd: projectRoot,
      // No loader: a TypeScript import would fail here.
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    expect(JSON.parse(stdout)).toEqual(goldShapeOf(await parseNoticeEmail(readFileSync(file))));
    expect(existsSync(path.join(projectRoot, "build/cli/ecfx.js"))).toBe(true);
    expect(readFileSync(path.join(projectRoot, "build/cli/ecfx.js"), "utf8")).not.toMatch(/from "tsx|require\("tsx/);
  });
});
