import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database";
import { inTurn } from "./sqlite-write-turns";

// Another process holds SQLite's write lock (here: a second connection with a transaction open).
// A write of ours waits for its turn without stopping the process, then goes through; a write
// whose turn never comes fails as SQLite's own timeout did.

describe("writes on SQLite waiting for their turn", () => {
  let dir = "";
  let database: Database | undefined;
  let other: SQLite.Database | undefined;

  afterEach(async () => {
    other?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<{ database: Database; other: SQLite.Database }> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-turns-"));
    const file = path.join(dir, "db.sqlite");
    database = openDatabase(`sqlite:${file}`);
    await sql`create table t (n integer)`.execute(database.db);
    other = new SQLite(file);
    return { database, other };
  }

  /** Holds the write lock for `ms`, counting the timer callbacks that ran meanwhile. */
  function holdLock(connection: SQLite.Database, ms: number): { released: Promise<void>; ticks: () => number } {
    connection.exec("begin immediate; insert into t values (1)");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 2);
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        clearInterval(ticker);
        connection.exec("commit");
        resolve();
      }, ms),
    );
    return { released, ticks: () => ticks };
  }

  it("lets a transaction wait for the lock while the process goes on, then commits it", async () => {
    const { database, other } = await open();
    const hold = holdLock(other, 150);
    const started = Date.now();
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into t values (2)`.execute(trx);
      await sql`insert into t values (3)`.execute(trx);
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // The process ran its timers while the transaction waited: it was not asleep inside SQLite
    // (asleep, no tick would run before the release, itself a timer of this process). How many
    // ran depends on how busy the machine is, so only that several did.
    expect(hold.ticks()).toBeGreaterThan(2);
    await hold.released;
    const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
    expect(rows.rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it("lets a single statement wait for the lock the same way", async () => {
    const { database, other } = await open();
    const hold = holdLock(other, 100);
    await database.db
      .insertInto("t" as never)
      .values({ n: 4 } as never)
      .execute();
    expect(hold.ticks()).toBeGreaterThan(2);
    const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
    expect(rows.rows.map((r) => r.n)).toEqual([1, 4]);
  });

  it("reads while another connection writes, without waiting", async () => {
    const { database, other } = await open();
    const hold = holdLock(other, 300);
    const started = Date.now();
    const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(database.db);
    expect(rows.rows[0]!.n).toBe(0);
    expect(Date.now() - started).toBeLessThan(200);
    await hold.released;
  });

  it("fails a write whose turn does not come in time, with SQLite's own error", async () => {
    const { other } = await open();
    const mine = new SQLite(path.join(dir, "db.sqlite"));
    mine.pragma("busy_timeout = 0");
    other.exec("begin immediate");
    try {
      const started = Date.now();
      await expect(inTurn(async () => mine.exec("insert into t values (9)"), 50)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    } finally {
      other.exec("rollback");
      mine.close();
    }
  });

  it("repeats nothing but a busy answer", async () => {
    let tries = 0;
    const attempt = inTurn(async () => {
      tries++;
      throw Object.assign(new Error("constraint failed"), { code: "SQLITE_CONSTRAINT" });
    });
    await expect(attempt).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT" });
    expect(tries).toBe(1);
  });
});
