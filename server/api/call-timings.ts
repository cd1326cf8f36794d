import { sql } from "kysely";
import type { SlowRoute } from "../../app/common/slow-route";
import type { Database } from "../db/database";
import { logger } from "../../app/common/logger";

// Every signed-in API call's duration, per firm and route pattern, for the slow-requests page.
// Calls are buffered and written in one statement every few seconds (never one write per call);
// rows older than the hour the page shows are removed as new ones arrive. Every API process
// writes its own calls, so the page covers all of them.

export const TIMING_WINDOW_MS = 60 * 60_000;
/** Each API process writes its waiting calls at least this often. */
export const FLUSH_EVERY_MS = 5_000;
const FLUSH_AT = 500;
/** Beyond this many waiting calls (the database is away), further ones are not kept. */
const MAX_WAITING = 20_000;

interface Call {
  firm_id: number;
  method: string;
  route: string;
  ms: number;
  at: number;
}

export interface CallTimings {
  record(call: Call): void;
  /** Writes what is waiting (tests, and the API's shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function callTimings(database: Database, now = () => Date.now()): CallTimings {
  let waiting: Call[] = [];
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      if (waiting.length === 0) return;
      const batch = waiting;
      waiting = [];
      try {
        await database.db.transaction().execute(async (trx) => {
          // Within the bound-parameter limits of both databases (5 per row).
          for (let i = 0; i < batch.length; i += 1_000)
            await trx
              .insertInto("api_call_timing")
              .values(batch.slice(i, i + 1_000))
              .execute();
          await trx
            .deleteFrom("api_call_timing")
            .where("at", "<", now() - TIMING_WINDOW_MS)
            .execute();
        });
      } catch (error) {
        logger("api").error({ err: error }, "API call timings could not be written");
      }
    });
    return writing;
  };

  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  return {
    record(call) {
      if (waiting.length >= MAX_WAITING) return;
      waiting.push(call);
      if (waiting.length >= FLUSH_AT) void flush();
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** The firm's routes of the last hour, slowest first by p95 (nearest-rank percentiles). */
export async function slowRoutes(database: Database, firmId: number, now = Date.now()): Promise<SlowRoute[]> {
  const since = now - TIMING_WINDOW_MS;
  const { rows } = await sql<{ method: string; route: string; count: number | string; p50: number; p95: number; max: number }>`
    with ranked as (
      select method, route, ms,
        row_number() over (partition by method, route order by ms) as rn,
        count(*) over (partition by method, route) as n
      from api_call_timing
      where firm_id = ${firmId} and at >= ${since}
    )
    select method, route, max(n) as count,
      min(case when rn * 100 >= n * 50 then ms end) as p50,
      min(case when rn * 100 >= n * 95 then ms end) as p95,
      max(ms) as max
    from ranked
    group by method, route
    order by p95 desc, count desc, route, method`.execute(database.db);
  return rows.map((r) => ({ method: r.method, route: r.route, count: Number(r.count), p50: Number(r.p50), p95: Number(r.p95), max: Number(r.max) }));
}
