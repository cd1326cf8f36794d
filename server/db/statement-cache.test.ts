import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache";

describe("the SQLite statement cache", () => {
  it("prepares a statement once per SQL text and keeps at most `size`, dropping the least recently used", () => {
    const sqlite = new SQLite(":memory:");
    const cached = withStatementCache(sqlite, 2);
    const a = cached.prepare("select 1 as n");
    expect(cached.prepare("select 1 as n")).toBe(a);
    const b = cached.prepare("select 2 as n");
    cached.prepare("select 1 as n"); // a is now the most recent
    cached.prepare("select 3 as n"); // b goes
    expect(cached.prepare("select 1 as n")).toBe(a);
    expect(cached.prepare("select 2 as n")).not.toBe(b);
    expect((a as unknown as SQLite.Statement).get()).toEqual({ n: 1 });
    sqlite.close();
  });

  it("gives a caller its own statement while the kept one is still being iterated", () => {
    const sqlite = new SQLite(":memory:");
    sqlite.exec("create table t (n integer); insert into t values (1), (2), (3)");
    const cached = withStatementCache(sqlite);
    const first = cached.prepare("select n from t order by n") as unknown as SQLite.Statement;
    const rows = first.iterate();
    rows.next();
    const second = cached.prepare("select n from t order by n") as unknown as SQLite.Statement;
    expect(second).not.toBe(first);
    expect(second.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    rows.return?.();
    expect(cached.prepare("select n from t order by n")).toBe(first);
    sqlite.close();
  });
});
