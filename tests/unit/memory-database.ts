import { type Database, migrateToLatest, openDatabase } from "../../server/db/database";

/** A migrated SQLite database in memory with one firm, for a unit test of code that reads and writes rows. */
export async function memoryDatabaseWithFirm(): Promise<{ database: Database; firmId: number }> {
  const database = openDatabase("sqlite::memory:");
  await migrateToLatest(database);
  const firm = await database.db
    .insertInto("firm")
    .values({ name: "F", created_at: 0, updated_at: 0, host_names: "[]" } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return { database, firmId: firm.id };
}
