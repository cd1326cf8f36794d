import pg from "pg";
import { describe, expect, it } from "vitest";
import type { PostgresCursor } from "kysely";
import { type PgClient, namingPool } from "./prepared-statements";
import { createPgDatabase } from "../../tests/api/test-databases";
import { PG_URL } from "../../tests/api/test-run";

/** A connection that records what it is asked to run and how it is given back. */
function recordingClient() {
  const sent: pg.QueryConfig[] = [];
  const released: (boolean | undefined)[] = [];
  const client: PgClient = {
    query: ((config: pg.QueryConfig | PostgresCursor<unknown>) => {
      if ("read" in config) return config;
      sent.push(config);
      return Promise.resolve({ command: "SELECT", rowCount: 0, rows: [] });
    }) as PgClient["query"],
    release: (destroy?: boolean) => void released.push(destroy),
  };
  return { client, sent, released };
}

describe("named statements per connection", () => {
  it("names each text once per connection and runs it by that name again", async () => {
    const { client, sent, released } = recordingClient();
    const pool = namingPool({ connect: async () => client, end: async () => undefined });
    const connection = await pool.connect();
    await connection.query("select $1", [1]);
    await connection.query("select $1, $2", [1, 2]);
    await connection.query("select $1", [3]);
    expect(sent.map((q) => [q.name, q.text, q.values])).toEqual([
      ["ecfx_1", "select $1", [1]],
      ["ecfx_2", "select $1, $2", [1, 2]],
      ["ecfx_1", "select $1", [3]],
    ]);
    // The same connection again is the same wrapper: its names are still known.
    expect(await pool.connect()).toBe(connection);
    connection.release();
    expect(released).toEqual([false]);
  });

  it("runs texts past its bound unnamed and closes the connection when given back", async () => {
    const { client, sent, released } = recordingClient();
    const connection = await namingPool({ connect: async () => client, end: async () => undefined }, 2).connect();
    for (const text of ["select 1", "select 2", "select 3", "select 1"]) await connection.query(text, []);
    expect(sent.map((q) => q.name)).toEqual(["ecfx_1", "ecfx_2", undefined, "ecfx_1"]);
    connection.release();
    expect(released).toEqual([true]);
  });

  it("hands a cursor to the connection as it is", async () => {
    const { client, sent } = recordingClient();
    const connection = await namingPool({ connect: async () => client, end: async () => undefined }).connect();
    const cursor: PostgresCursor<unknown> = { read: async () => [], close: async () => undefined };
    expect(connection.query(cursor)).toBe(cursor);
    expect(sent).toEqual([]);
  });

  it.runIf(PG_URL)("PostgreSQL keeps a named text prepared on its connection and answers it again", async () => {
    const database = await createPgDatabase();
    const raw = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const connection = await namingPool(raw).connect();
      const first = await connection.query<{ n: number }>("select $1::int + 1 as n", [1]);
      const second = await connection.query<{ n: number }>("select $1::int + 1 as n", [41]);
      expect([first.rows[0]?.n, second.rows[0]?.n]).toEqual([2, 42]);
      // The listing is a named text of its own.
      const kept = await connection.query<{ name: string; statement: string }>("select name, statement from pg_prepared_statements order by name", []);
      expect(kept.rows.map((r) => [r.name, r.statement])).toEqual([
        ["ecfx_1", "select $1::int + 1 as n"],
        ["ecfx_2", "select name, statement from pg_prepared_statements order by name"],
      ]);
      connection.release();
    } finally {
      await raw.end();
      await database.drop();
    }
  });

  it.runIf(PG_URL)("closes a connection whose kept text a changed table made PostgreSQL refuse", async () => {
    const database = await createPgDatabase();
    const raw = new pg.Pool({ connectionString: database.url, max: 2 });
    const closed: (boolean | undefined)[] = [];
    const pool = namingPool({
      connect: async () => {
        const client = await raw.connect();
        return { query: client.query.bind(client) as PgClient["query"], release: (destroy?: boolean) => (closed.push(destroy), client.release(destroy)) };
      },
      end: () => raw.end(),
    });
    try {
      const connection = await pool.connect();
      await connection.query("create table t (a int)", []);
      await connection.query("select * from t", []);
      const other = await raw.connect();
      await other.query("alter table t add column b int");
      other.release();
      await expect(connection.query("select * from t", [])).rejects.toMatchObject({ code: "0A000" });
      connection.release();
      expect(closed).toEqual([true]);
    } finally {
      await raw.end();
      await database.drop();
    }
  });
});
