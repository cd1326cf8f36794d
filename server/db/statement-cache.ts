import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

// Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a
// small query. Statements are kept by their SQL text (the queries are built with parameters, so
// the texts repeat) and reused, the least recently used dropped beyond `size`.

export function withStatementCache(sqlite: SQLite.Database, size = 1_000): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const kept = cache.get(sql);
      // A statement still being iterated (a streamed read) cannot run again: that caller gets its own.
      if (kept && !kept.busy) {
        cache.delete(sql);
        cache.set(sql, kept);
        return kept as unknown as SqliteStatement;
      }
      const statement = sqlite.prepare(sql);
      if (!kept) {
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value!);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}
