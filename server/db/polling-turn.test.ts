import pg from "pg";
import { describe, expect, it } from "vitest";
import { POLLING_LOCK, advisoryPollingTurn } from "./polling-turn";
import { createPgDatabase } from "../../tests/api/test-databases";
import { PG_URL } from "../../tests/api/test-run";

/** What `take` resolved to, or "waiting" when it has not within `ms`. */
const within = (taking: Promise<boolean>, ms: number) => Promise.race([taking, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), ms))]);

describe("the idle workers' polling turn on PostgreSQL (decision 140)", () => {
  it.runIf(PG_URL)("is held by one process at a time, passes when given, stops a wait when closed, and is never waited for longer than its limit", async () => {
    // No statement may fail on the way: PostgreSQL logs each failed statement as an error, and a
    // wait that ran out would put one in its log every few minutes for each waiting process.
    const failed: string[] = [];
    const query = pg.Client.prototype.query;
    const end = pg.Client.prototype.end;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) result.catch((error: { code?: string }) => failed.push(error.code ?? String(error)));
      return result;
    } as typeof query;
    const database = await createPgDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    const cancel = (pid: number) => pool.query("select pg_cancel_backend($1)", [pid]);
    const locks = async (granted: boolean) =>
      (
        await pool.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and granted = $2
          and database = (select oid from pg_database where datname = current_database())`,
          [POLLING_LOCK, granted],
        )
      ).rows[0]!.n;
    const waiting = () => locks(false);
    const [first, second] = [advisoryPollingTurn(database.url, cancel), advisoryPollingTurn(database.url, cancel)];
    const third = advisoryPollingTurn(database.url, cancel, 300);
    try {
      // The first to ask waits for nobody; asked again, it holds the turn.
      expect(await first.take()).toBe(false);
      expect(await first.take()).toBe(true);
      const secondTakes = second.take();
      expect(await within(secondTakes, 300)).toBe("waiting");
      expect(await waiting()).toBe(1);
      // Given up by the first, the second has it at once and polls without waiting more.
      first.give();
      expect(await within(secondTakes, 2_000)).toBe(false);
      expect(await second.take()).toBe(true);
      // One whose limit passes polls once anyway, and waits again when asked.
      const started = Date.now();
      expect(await within(third.take(), 5_000)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      // Closed while waiting: the wait ends and no backend is left waiting.
      const firstTakes = first.take();
      expect(await within(firstTakes, 100)).toBe("waiting");
      await first.close();
      expect(await within(firstTakes, 2_000)).toBe(true);
      await third.close();
      expect(await waiting()).toBe(0);
      // Closed while holding it: the turn is free once close resolves (a stopped worker holds
      // nothing), also when the session takes a while to end, as on a busy machine.
      pg.Client.prototype.end = function (this: pg.Client, ...args: unknown[]) {
        return new Promise((resolve) => setTimeout(resolve, 300)).then(() => (end as (...a: unknown[]) => unknown).apply(this, args));
      } as typeof end;
      await second.close();
      pg.Client.prototype.end = end;
      expect(await locks(true)).toBe(0);
      const after = advisoryPollingTurn(database.url, cancel);
      expect(await within(after.take(), 2_000)).toBe(false);
      await after.close();
      expect(failed).toEqual([]);
    } finally {
      pg.Client.prototype.query = query;
      pg.Client.prototype.end = end;
      await Promise.all([first, second, third].map((turn) => turn.close()));
      await pool.end();
      await database.drop();
    }
  });
});
