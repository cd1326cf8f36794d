import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./database";
import { createPgDatabase } from "../../tests/api/test-databases";
import { PG_URL, withAdminClient } from "../../tests/api/test-run";

describe("openDatabase on SQLite", () => {
  it("flushes what was committed before it closes: an ecfx command beside a running server leaves no commit to a checkpoint (decision 139)", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-close-"));
    try {
      const file = path.join(folder, "ecfx.sqlite");
      // Another process's connection, as a running server's: the command's close is not the last.
      const server = openDatabase(`sqlite:${file}`);
      await sql`create table t (a integer)`.execute(server.db);
      const command = openDatabase(`sqlite:${file}`);
      /** At each of the command's flushes: the rows committed by then. */
      const flushes: number[] = [];
      const own = command.commitsOnDisk;
      command.commitsOnDisk = async () => {
        flushes.push((await sql<{ n: number }>`select count(*) as n from t`.execute(server.db)).rows[0]!.n);
        return own();
      };
      await sql`insert into t values (1)`.execute(command.db);
      expect(flushes).toEqual([]);
      await command.close();
      expect(flushes).toEqual([1]);
      // The server's connection is still open: the command's close was no checkpoint.
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      await server.close();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("openDatabase on PostgreSQL", () => {
  it.runIf(PG_URL)("flushes each commit even where the server's default is synchronous_commit = off, and keeps a stronger setting (decision 139)", async () => {
    const database = await createPgDatabase();
    const name = new URL(database.url).pathname.slice(1);
    const settingOf = async () => {
      const product = openDatabase(database.url);
      try {
        // Two at once: each connection the pool opens is set before its first query.
        const both = await Promise.all(
          [0, 1].map(() => sql<{ s: string }>`select current_setting('synchronous_commit') as s, pg_sleep(0.05)`.execute(product.db)),
        );
        return both.map((r) => r.rows[0]?.s);
      } finally {
        await product.close();
      }
    };
    try {
      await withAdminClient((c) => c.query(`alter database ${name} set synchronous_commit = off`));
      expect(await settingOf()).toEqual(["on", "on"]);
      await withAdminClient((c) => c.query(`alter database ${name} set synchronous_commit = remote_apply`));
      expect(await settingOf()).toEqual(["remote_apply", "remote_apply"]);
    } finally {
      await database.drop();
    }
  });
});
