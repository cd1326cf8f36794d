import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import * as core from "@mantine/core";
import { describe, expect, it } from "vitest";

// The console takes Mantine's parts from their own files (decision 080): a `./esm/*` entry patched
// into @mantine/core's exports, and @mantine/notifications patched to import the parts it draws
// instead of the index (patches/@mantine+*). Every such import must still name the very thing the
// index exports, so a Mantine upgrade that moves or changes a part fails here, not in a page.
const root = new URL("../..", import.meta.url).pathname;

// `import { A, B as C } from "x"` and `export { A } from "x"` in a file or a patch's added lines.
function namedImports(text: string): { names: string[]; from: string }[] {
  return [...text.matchAll(/^\+?(?:import|export) \{([^}]+)\} from ['"]([^'"]+)['"]/gm)].map(([, names = "", from = ""]) => ({
    names: names.split(",").map((n) => n.trim().split(/\s+as\s+/)[0] ?? ""),
    from,
  }));
}

const patches = readdirSync(path.join(root, "patches")).filter((f) => f.startsWith("@mantine+"));
const sources = [...patches.map((f) => path.join("patches", f)), "app/utils/mantine-document.ts", "app/utils/mantine.ts"];
const partImports = sources.flatMap((file) =>
  namedImports(readFileSync(path.join(root, file), "utf8"))
    .filter((i) => i.from.startsWith("@mantine/core/esm/") || i.from === "react-remove-scroll")
    .map((i) => ({ file, ...i })),
);

describe("Mantine parts from their own files", () => {
  it("patches only the installed versions", () => {
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) {
      const [, scope = "", name = "", version = ""] = /^(@[^+]+)\+([^+]+)\+(.+)\.patch$/.exec(patch) ?? [];
      const { version: current } = JSON.parse(readFileSync(path.join(root, "node_modules", scope, name, "package.json"), "utf8")) as { version: string };
      expect(`${scope}/${name}@${current}`).toBe(`${scope}/${name}@${version}`);
    }
  });

  it("imports from each part's file what the index exports, the same object", async () => {
    expect(partImports.length).toBeGreaterThan(40);
    for (const { file, names, from } of partImports) {
      const mod = (await import(from)) as Record<string, unknown>;
      for (const name of names) {
        expect(mod[name], `${name} from ${from} (${file})`).toBeDefined();
        expect(mod[name], `${name} from ${from} (${file})`).toBe((core as Record<string, unknown>)[name]);
      }
    }
  });

  it("leaves no import of @mantine/core's index in the notifications' files the root draws", () => {
    const esm = path.join(root, "node_modules/@mantine/notifications/esm");
    for (const file of ["Notifications.mjs", "NotificationContainer.mjs"]) {
      expect(readFileSync(path.join(esm, file), "utf8"), file).not.toMatch(/from '@mantine\/core'/);
    }
  });
});
