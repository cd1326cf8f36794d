import pg from "pg";

// Work every process does at start but only one may do at a time (creating the demo firms on a
// fresh database): on PostgreSQL, several processes start together (docs/scaling.md), so it runs
// under a session advisory lock on a connection of its own; SQLite has one writer anyway.

/** Arbitrary, fixed: the advisory lock key of start-up seeding. */
const STARTUP_LOCK = 4_242_001;

export async function underStartupLock<T>(databaseUrl: string, run: () => Promise<T>): Promise<T> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return run();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    return await run();
  } finally {
    await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
