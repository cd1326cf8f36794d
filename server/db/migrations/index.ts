import fs from "node:fs";
import type { Kysely } from "kysely";

type Dialect = "sqlite" | "postgres";
export type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/** A migration is a numbered file in this folder; names sort in the order they run. */
export const MIGRATION_FILE = /^(\d{3}-[a-z0-9-]+)\.(?:ts|js)$/;

/**
 * Every migration file beside this module, found by name, so adding one touches no list. The
 * compiled command (scripts/build-cli.mjs) replaces this module with a static list of the same
 * files, as a bundle has no folder to read.
 */
export async function loadMigrations(): Promise<Record<string, MigrationModule>> {
  const folder = new URL(".", import.meta.url);
  const files = new Map<string, string>();
  for (const file of fs.readdirSync(folder).sort()) {
    const name = MIGRATION_FILE.exec(file)?.[1];
    if (name && !files.has(name)) files.set(name, file);
  }
  const loaded = await Promise.all([...files].map(async ([name, file]) => [name, (await import(new URL(file, folder).href)) as MigrationModule] as const));
  return Object.fromEntries(loaded);
}
