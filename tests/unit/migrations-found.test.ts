import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATION_FILE, loadMigrations } from "../../server/db/migrations/index";

// A migration is found by its file name: adding one must not need a list kept by hand.
describe("migrations", () => {
  it("are every numbered file of the folder, in the order of their numbers", async () => {
    const folder = path.resolve(import.meta.dirname, "../../server/db/migrations");
    const files = fs
      .readdirSync(folder)
      .filter((f) => MIGRATION_FILE.test(f))
      .map((f) => f.replace(/\.(ts|js)$/, ""));
    const loaded = await loadMigrations();
    expect(Object.keys(loaded)).toEqual([...files].sort());
    expect(Object.keys(loaded)).toContain("001-initial");
    for (const migration of Object.values(loaded)) expect(typeof migration.up).toBe("function");
  });

  it("never take a helper module of the folder for a migration", () => {
    expect(MIGRATION_FILE.test("index.ts")).toBe(false);
    expect(MIGRATION_FILE.test("017-dashboard-counts.test.ts")).toBe(false);
    expect(MIGRATION_FILE.test("017-dashboard-counts.ts")).toBe(true);
  });
});
