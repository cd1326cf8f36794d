import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, type Migration } from "kysely";
import pg from "pg";
import { flushToDisk, sharedFlush } from "../lib/on-disk";
import { FOLD_FUNCTION, fold } from "../lib/text-fold";
import { loadMigrations } from "./migrations/index";
import { type PollingTurn, advisoryPollingTurn, everyonePolls } from "./polling-turn";
import { namingPool } from "./prepared-statements";
import { withStatementCache } from "./statement-cache";
import { TurnTakingSqliteDialect, WRITE_TURN_TIMEOUT_MS } from "./sqlite-write-turns";
import type { DB } from "./schema";
import { logger } from "../../app/common/logger";

export type DialectName = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  close(): Promise<void>;
  /**
   * Resolves once every commit made so far is on the disk, not only in the kernel's cache: before
   * the outside world is told of one (a 250 to a court's server) or acts on one (decision 138).
   */
  commitsOnDisk(): Promise<void>;
  /** How a worker's idle loops take turns at polling the queue with other worker processes. */
  pollingTurn(): PollingTurn;
}

// PostgreSQL returns int8 as strings; every bigint we store is a millisecond time or a size
// well inside Number's safe range.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(url: string): Database {
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length);
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    const sqlite = new SQLite(file);
    // The firm's data is for this process's user alone; SQLite gives its WAL files the same mode.
    if (file !== ":memory:") fs.chmodSync(file, 0o600);
    sqlite.pragma(`busy_timeout = ${WRITE_TURN_TIMEOUT_MS}`);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    // From here on a write waits for its turn on the event loop, not asleep inside SQLite.
    sqlite.pragma("busy_timeout = 0");
    // Free-text search folds accents and case with the same code on both sides (lib/text-fold.ts).
    sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === "string" ? fold(value) : value));
    const db = new Kysely<DB>({ dialect: new TurnTakingSqliteDialect({ database: withStatementCache(sqlite) }) });
    // WAL mode with synchronous = NORMAL writes each commit to the WAL file and flushes it only at
    // checkpoints; flushing the file makes every commit in it durable, without holding the process
    // as synchronous = FULL would at each commit (decision 138). No WAL file: SQLite checkpointed
    // it into the database file, which it flushed first.
    const wal = `${path.resolve(file)}-wal`;
    // Commits flushed together (several messages, loops and requests at once) share one flush.
    const commitsOnDisk = file === ":memory:" ? async () => undefined : sharedFlush(() => flushToDisk(wal));
    const database: Database = {
      db,
      dialect: "sqlite",
      commitsOnDisk,
      pollingTurn: () => everyonePolls,
      // Closing is not a checkpoint while another process has the file open (an `ecfx` command
      // beside a running server): what was committed is flushed first (decision 139).
      async close() {
        try {
          await database.commitsOnDisk();
        } finally {
          await db.destroy();
        }
      },
    };
    return database;
  }
  // Connections are kept five minutes idle, not pg's ten seconds: a worker process resting while
  // another has the polling turn (decision 140) would otherwise come back to new backends, each
  // reading the catalogue and planning every statement afresh.
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 5 * 60_000 });
  // An idle connection the server closed (restart, failover) must not bring the process down;
  // the pool opens a new one on the next query.
  pool.on("error", (error) => logger("database").warn({ err: error }, "PostgreSQL connection lost"));
  // PostgreSQL flushes its WAL at each commit (synchronous_commit, on by default), which the 250 to
  // a court's server rests on. A server set to `off` is overruled on the product's connections; a
  // stronger setting (remote_write, remote_apply) stays (decision 139). Sent before the first
  // query a connection is given for.
  pool.on("connect", (client) => {
    client
      .query("select set_config('synchronous_commit', 'on', false) where current_setting('synchronous_commit') = 'off'")
      .catch((error: unknown) => logger("database").warn({ err: error }, "could not turn synchronous_commit on"));
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
  return {
    db,
    dialect: "postgres",
    close: () => db.destroy(),
    commitsOnDisk: async () => undefined,
    pollingTurn: () => advisoryPollingTurn(url, (pid) => pool.query("select pg_cancel_backend($1)", [pid])),
  };
}

export async function migrateToLatest(database: Database): Promise<void> {
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      const migrations = await loadMigrations();
      return Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, database.dialect) }]));
    },
  };
  // Migrations are numbered by area; one added later with a lower number still runs.
  const migrator = new Migrator({ db: database.db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
