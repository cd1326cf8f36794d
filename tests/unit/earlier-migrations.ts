import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, Migrator } from "kysely";
import { onTestFinished } from "vitest";
import { type Database, openDatabase } from "../../server/db/database";
import { loadMigrations } from "../../server/db/migrations/index";
import { createPgDatabase } from "../api/test-databases";
import { PG_URL } from "../api/test-run";

// A database as an earlier release left it, for tests of what a migration does to existing rows.

export const backends = PG_URL ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

/** An empty database of the backend, dropped when the test that opened it ends. */
export async function openFresh(backend: (typeof backends)[number]): Promise<Database> {
  if (backend === "postgres") {
    const created = await createPgDatabase();
    onTestFinished(created.drop);
    return openDatabase(created.url);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-migration-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return openDatabase(`sqlite:${path.join(dir, "ecfx.sqlite")}`);
}

/** Runs the migrations numbered below `before`, as a database of an earlier release holds them. */
export async function migrateBelow(database: Database, before: string): Promise<void> {
  const all = await loadMigrations();
  const earlier = Object.entries(all).filter(([name]) => name < before);
  const provider = {
    getMigrations: async () => Object.fromEntries(earlier.map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, database.dialect) }])),
  };
  const { error } = await new Migrator({ db: database.db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) throw error;
}
