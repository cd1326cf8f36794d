// The `ecfx` bin: the project links it into node_modules/.bin (through the local package
// scripts/ecfx-command, so that npx runs it without reading the dependency tree), and plain node
// runs the compiled command (built on first use), with no TypeScript loader and no ES module
// loader for `parse`, printing the same parse as the library.
import { execFile } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goldShapeOf, parseNoticeEmail } from "../../../server/notices";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(projectRoot, file), "utf8")) as Record<string, unknown>;
const sample = path.join(projectRoot, "tests/fixtures/notices/nef-jpml-mdl-members.eml");
const noLoader = { cwd: projectRoot, env: { ...process.env, NODE_OPTIONS: "" } };

describe("ecfx bin", () => {
  it("is linked into node_modules/.bin by a dependency of the project, not declared by the project itself", () => {
    // npm resolves a bin the project declares itself by loading the whole dependency tree first.
    expect(readJson("package.json").bin).toBeUndefined();
    expect((readJson("package.json").dependencies as Record<string, string>)["ecfx-command"]).toBe("file:scripts/ecfx-command");
    expect(readJson("scripts/ecfx-command/package.json").bin).toEqual({ ecfx: "ecfx.cjs" });
    expect(realpathSync(path.join(projectRoot, "node_modules/.bin/ecfx"))).toBe(path.join(projectRoot, "scripts/ecfx-command/ecfx.cjs"));
  });

  it("parses with plain node from compiled CommonJS, the same as the library", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(projectRoot, "node_modules/.bin/ecfx"), "parse", sample, "--json"], noLoader);
    expect(JSON.parse(stdout)).toEqual(goldShapeOf(await parseNoticeEmail(readFileSync(sample))));
    const bundle = readFileSync(path.join(projectRoot, "build/cli/parse.cjs"), "utf8");
    expect(bundle).not.toMatch(/require\("tsx|from "tsx/);
    // Nothing of the database or of the other commands is in the parse bundle.
    expect(bundle).not.toMatch(/better-sqlite3|require\("pg"\)|kysely/);
  });

  it("runs the other commands from the compiled ES modules", async () => {
    const run = promisify(execFile)(process.execPath, [path.join(projectRoot, "scripts/ecfx.cjs"), "no-such-command"], noLoader);
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("usage: ecfx <parse|ingest|seed|features|secrets|firm|billing>") });
  });
});
