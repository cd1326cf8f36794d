import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// README's map of the folders is the tree: every folder of app/ and server/ is listed with its one
// job, every listed folder exists, and server/'s folders are listed in the order of the import
// floors (docs/decisions/124-folders-say-where-code-goes.md).

const repo = path.resolve(import.meta.dirname, "../..");
const PARTS = ["app", "server"] as const;
/** Folders that hold declarations only and are imported by nobody, so they have no floor. */
const NO_FLOOR = new Set(["server/types"]);

interface Listed {
  folder: string;
  job: string;
}

/** The `- \`app/x/\`: job` lines of README's "Where things are" section, in order. */
function folderMap(readme: string): Listed[] {
  const start = readme.indexOf("\n## Where things are\n");
  if (start < 0) throw new Error('README has no "## Where things are" section');
  const rest = readme.slice(start + 1);
  const next = rest.indexOf("\n## ", 1);
  const section = next < 0 ? rest : rest.slice(0, next);
  const listed: Listed[] = [];
  for (const line of section.split("\n")) {
    const item = /^- `((?:app|server)\/[^`]+?)\/?`:?\s*(.*)$/.exec(line);
    if (item) listed.push({ folder: item[1]!, job: item[2]!.trim() });
  }
  return listed;
}

/** The folders directly inside app/ and server/. */
function treeFolders(): string[] {
  return PARTS.flatMap((part) =>
    fs
      .readdirSync(path.join(repo, part), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${part}/${entry.name}`),
  ).sort();
}

/** The server floors in the order scripts/dependency-cruiser.cjs holds them (a rule per floor but the top one, main.ts). */
function floorOrder(): string[] {
  const config = createRequire(import.meta.url)(path.join(repo, "scripts/dependency-cruiser.cjs")) as { forbidden: { name: string }[] };
  return config.forbidden.flatMap((rule) => (rule.name.startsWith("server-floor-") ? [`server/${rule.name.slice("server-floor-".length)}`] : []));
}

describe("README's map of the folders", () => {
  const listed = folderMap(fs.readFileSync(path.join(repo, "README.md"), "utf8"));

  it("lists every folder of app/ and server/, and only those, once each", () => {
    const names = listed.map((entry) => entry.folder);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(treeFolders());
  });

  it("gives each folder its job in one line", () => {
    for (const { folder, job } of listed) {
      expect(job, folder).toMatch(/\w{3,}/);
      expect(job.length, `${folder}: one line, not a paragraph`).toBeLessThanOrEqual(200);
    }
  });

  it("lists server/'s folders in the order of the import floors, each folder a floor", () => {
    const folders = new Set(treeFolders());
    const floors = floorOrder().filter((floor) => folders.has(floor));
    const serverListed = listed.map((entry) => entry.folder).filter((folder) => folder.startsWith("server/") && !NO_FLOOR.has(folder));
    expect(serverListed).toEqual(floors);
  });

  it("reads the map's lines and stops at the next section", () => {
    const readme = "# X\n\n## Where things are\n\n- `app/a/`: the a\n- `server/b`: the b\n\n## Next\n\n- `server/c/`: not in the map\n";
    expect(folderMap(readme)).toEqual([
      { folder: "app/a", job: "the a" },
      { folder: "server/b", job: "the b" },
    ]);
  });
});
