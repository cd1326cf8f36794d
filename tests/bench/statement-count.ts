// Statements the product sends its database, counted at the driver in the benchmark's own process
// (the product in this process: notice-pipeline.ts). PostgreSQL here has no pg_stat_statements
// (it needs shared_preload_libraries and a restart), so every query a pg client is asked for is
// counted, BEGIN and COMMIT included: each is a round trip and a parse in a backend. On SQLite each
// statement run (and each exec, as BEGIN and COMMIT are) counts once.
import SQLite from "better-sqlite3";
import pg from "pg";

export interface StatementCounter {
  /** Statements counted so far. */
  total(): number;
  /** Counts by the statement's shape (parameters and values left out), as they stand now. */
  byShape(): Map<string, number>;
  restore(): void;
}

/** A statement's text without what varies between runs of it: parameter lists and spacing. */
function shapeOf(text: unknown): string {
  const sql = typeof text === "string" ? text : ((text as { text?: string } | undefined)?.text ?? "?");
  return sql
    .replace(/\s+/g, " ")
    .replace(/\((?:\s*(?:\$\d+|\?)\s*,?)+\)/g, "(…)")
    .slice(0, 140);
}

/** Starts counting every statement of this process's pg clients and better-sqlite3 connections. */
export function countStatements(): StatementCounter {
  const counts = new Map<string, number>();
  const count = (text: unknown) => {
    const shape = shapeOf(text);
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  };
  const restores: (() => void)[] = [];
  const wrap = <T extends object>(target: T, name: keyof T & string, textOf: (self: unknown, args: unknown[]) => unknown) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      count(textOf(this, args));
      return original.apply(this, args);
    };
    restores.push(() => ((target as Record<string, unknown>)[name] = original));
  };
  wrap(pg.Client.prototype, "query", (_self, args) => args[0]);
  // better-sqlite3 does not export its Statement class: its prototype is that of any statement.
  const probe = new SQLite(":memory:");
  const statementPrototype = Object.getPrototypeOf(probe.prepare("select 1")) as Record<string, unknown>;
  probe.close();
  for (const name of ["run", "get", "all", "iterate"]) wrap(statementPrototype, name, (self) => (self as { source: string }).source);
  wrap(SQLite.prototype as unknown as Record<string, unknown>, "exec", (_self, args) => args[0]);
  return {
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    byShape: () => new Map(counts),
    restore: () => restores.reverse().forEach((restore) => restore()),
  };
}

/** The statements counted between two `byShape` readings, most frequent first. */
export function shapesBetween(before: Map<string, number>, after: Map<string, number>): [shape: string, count: number][] {
  return [...after]
    .map(([shape, n]): [string, number] => [shape, n - (before.get(shape) ?? 0)])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
}
