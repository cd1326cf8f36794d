import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type ICruiseResult, cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterEach, describe, expect, it } from "vitest";

// The import rules of `npm run lint`, run on small trees made for each case: a deliberate bad
// import must be reported by the rule that forbids it, and the same tree without it must pass.
// dependency-cruiser runs in this process with the lint's own configuration: a command per case
// spent seconds starting and loading TypeScript each time.
const repo = resolve(import.meta.dirname, "../..");
const config = join(repo, "scripts/dependency-cruiser.cjs");
const options = extractDepcruiseOptions(config);
let trees: string[] = [];

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "ecfx-boundaries-"));
  trees.push(root);
  const all = { "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] } } }), ...files };
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** The names of the rules the tree breaks; empty when it passes. */
async function violations(root: string): Promise<string[]> {
  const { tsConfig, ...rest } = await options;
  // The tree is the base folder, as `depcruise app server` run in it; it has no proto/ of its own
  // unless a case makes one, reached through the imports.
  const done = await cruise(["app", "server"], { ...rest, baseDir: root, outputType: "json" }, undefined, {
    tsConfig: extractTSConfig(join(root, tsConfig?.fileName ?? "tsconfig.json")),
  });
  const result = (typeof done.output === "string" ? JSON.parse(done.output) : done.output) as ICruiseResult;
  return result.summary.violations.map((v) => v.rule.name);
}

afterEach(async () => {
  await Promise.all(trees.map((root) => rm(root, { recursive: true, force: true })));
  trees = [];
});

describe("import boundaries", () => {
  const clean = {
    "app/common/access.ts": "export const level = 1;\n",
    "app/utils/page.ts": 'import { level } from "../common/access";\nexport const page = level;\n',
    "server/lib/clock.ts": "export const now = () => 0;\n",
    "server/db/database.ts": 'import { now } from "../lib/clock";\nimport { level } from "../../app/common/access";\nexport const db = now() + level;\n',
    "server/api/app.ts": 'import { db } from "../db/database";\nexport const app = db;\n',
    "server/context.ts": 'import type { db } from "./db/database";\nexport type Ctx = typeof db;\n',
  };

  it("passes a tree whose imports flow one way", async () => {
    expect(await violations(await tree(clean))).toEqual([]);
  });

  it("fails when a lower server floor imports a higher one", async () => {
    const root = await tree({ ...clean, "server/lib/clock.ts": 'import { app } from "../api/app";\nexport const now = () => app;\n' });
    expect(await violations(root)).toEqual(["server-floor-lib"]);
  });

  it("fails when the console imports the server", async () => {
    const root = await tree({ ...clean, "app/utils/page.ts": 'import { db } from "../../server/db/database";\nexport const page = db;\n' });
    expect(await violations(root)).toEqual(["console-imports-server"]);
  });

  it("fails when the server imports the console outside app/common", async () => {
    const root = await tree({ ...clean, "server/db/database.ts": 'import { page } from "../../app/utils/page";\nexport const db = page;\n' });
    expect(await violations(root)).toEqual(["server-imports-console"]);
  });

  it("fails when app/common imports the rest of the console", async () => {
    const root = await tree({ ...clean, "app/common/access.ts": 'import { page } from "../utils/page";\nexport const level = page;\n' });
    expect(await violations(root)).toContain("shared-imports-console");
  });

  it("fails when app/common holds a module for one side's server code only", async () => {
    const root = await tree({
      ...clean,
      "app/common/proto.server.ts": "export const decode = () => 1;\n",
      "app/utils/page.ts": 'import { decode } from "../common/proto.server";\nexport const page = decode();\n',
    });
    expect(await violations(root)).toEqual(["shared-is-shared"]);
  });

  it("lets both sides use the messages' codec in proto/, which imports neither", async () => {
    const codec = "proto/codec.server.ts";
    const both = {
      ...clean,
      [codec]: "export const decode = () => 1;\n",
      "app/utils/page.ts": 'import { decode } from "../../proto/codec.server";\nexport const page = decode();\n',
      "server/db/database.ts": 'import { decode } from "../../proto/codec.server";\nexport const db = decode();\n',
    };
    expect(await violations(await tree(both))).toEqual([]);
    const reaching = await tree({ ...both, [codec]: 'import { now } from "../server/lib/clock";\nexport const decode = () => now();\n' });
    expect(await violations(reaching)).toEqual(["proto-stands-alone"]);
  });

  it("fails when the server context imports more than types", async () => {
    const root = await tree({ ...clean, "server/context.ts": 'import { db } from "./db/database";\nexport const ctx = db;\n' });
    expect(await violations(root)).toEqual(["server-context-is-types"]);
  });

  it("fails when a parser reads the database", async () => {
    const parser = 'import { db } from "../db/database";\nexport const parse = () => db;\n';
    const root = await tree({ ...clean, "server/notices/parse.ts": parser });
    expect(await violations(root)).toEqual(["parsers-read-no-database"]);
    const stored = await tree({ ...clean, "server/stored-mail/stored-message.ts": parser });
    expect(await violations(stored)).toEqual([]);
  });
});
