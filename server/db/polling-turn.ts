import pg from "pg";
import { logger } from "../../app/common/logger";

// Worker processes on one PostgreSQL database look for work in turns: while the queue is empty one
// process polls and the others wait for the turn without running anything (a blocked advisory
// lock costs neither side CPU). Each idle process polling on its own cost some 12 ms of CPU a
// second between it and its backend (decision 140). SQLite's polls stay in the process and cost
// little: there every worker polls.

/** Arbitrary, fixed: the advisory lock key of the idle workers' polling turn. */
export const POLLING_LOCK = 4_242_002;

/** After the turn's connection failed, polls go on without it this long before it is tried again. */
const RETRY_AFTER_MS = 5_000;

/** The longest a process waits for the turn before it polls once anyway, whatever the holder does. */
const LONGEST_WAIT_MS = 5 * 60_000;

/**
 * Waits for the turn on the backend, then says whether it has it: not when the wait ran out
 * (lock_timeout) or was cancelled. Caught there, neither end of a wait is a failed statement, which
 * PostgreSQL would log as an error, every few minutes for each waiting process. Two statements in
 * one message (the simple protocol; the key written in), so one round trip, and nothing made in
 * the database.
 */
const TAKE = `do $$ begin
  perform pg_advisory_lock(${POLLING_LOCK});
  perform set_config('ecfx.polling_turn', 'taken', false);
exception when lock_not_available or query_canceled then
  perform set_config('ecfx.polling_turn', 'not taken', false);
end $$; select current_setting('ecfx.polling_turn') = 'taken' as taken`;

export interface PollingTurn {
  /**
   * Resolves once this process may poll an empty queue: at once when it holds the turn (true
   * then), after waiting for it otherwise (false: the holder just found work, so poll now).
   */
  take(): Promise<boolean>;
  /** This process found work: the next idle process polls while it works. */
  give(): void;
  /** Ends a wait for the turn (take resolves) and lets the turn go. */
  close(): Promise<void>;
}

/** SQLite: every worker polls. */
export const everyonePolls: PollingTurn = {
  take: async () => true,
  give: () => undefined,
  close: async () => undefined,
};

/**
 * The turn as a session advisory lock on a connection of its own. `cancel` stops a backend's wait
 * (a closed connection does not: the backend would wait on until granted).
 */
export function advisoryPollingTurn(url: string, cancel: (pid: number) => Promise<unknown>, longestWaitMs = LONGEST_WAIT_MS): PollingTurn {
  const log = logger("database");
  let client: pg.Client | undefined;
  let backend = 0;
  let held = false;
  let closed = false;
  let waiting: Promise<boolean> | undefined;
  let failedAt = -Infinity;

  /** Ends the turn's session; resolves once it has ended, the turn with it. */
  const drop = (c: pg.Client): Promise<void> => {
    if (client === c) client = undefined;
    held = false;
    return c.end().catch(() => undefined);
  };
  const wait = async (): Promise<boolean> => {
    let c = client;
    try {
      if (!c) {
        backend = 0;
        const opened = new pg.Client({ connectionString: url });
        // A connection lost while idle (a restart) ends the turn; the next take opens another.
        opened.on("error", () => void drop(opened));
        client = c = opened;
        await c.connect();
        backend = (await c.query<{ pid: number }>(`select pg_backend_pid() as pid, set_config('lock_timeout', '${longestWaitMs}ms', false)`)).rows[0]!.pid;
      }
      if (closed) return true;
      const [, outcome] = (await c.query(TAKE)) as unknown as [pg.QueryResult, pg.QueryResult<{ taken: boolean }>];
      const taken = outcome.rows[0]!.taken;
      held = taken && !closed;
      // Not taken: the wait ran out (poll once anyway) or was cancelled by close.
      return closed;
    } catch (error) {
      if (c) void drop(c);
      if (!closed) {
        failedAt = Date.now();
        log.warn({ err: error }, "idle workers poll without taking turns for a while: the turn's connection failed");
      }
      return true;
    }
  };

  return {
    take() {
      if (held || closed || Date.now() - failedAt < RETRY_AFTER_MS) return Promise.resolve(true);
      waiting ??= wait().finally(() => (waiting = undefined));
      return waiting;
    },
    give() {
      if (!held || !client) return;
      held = false;
      const c = client;
      c.query("select pg_advisory_unlock($1)", [POLLING_LOCK]).catch(() => void drop(c));
    },
    async close() {
      closed = true;
      const c = client;
      if (!c) return;
      // A cancel that reaches the backend before the lock's statement is lost: sent again until it ends.
      for (let tries = 0; waiting && tries < 20; tries++) {
        if (backend) await cancel(backend).catch(() => undefined);
        await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 100))]);
      }
      // Ending the session lets the turn go: once closed, this process holds nothing.
      await drop(c);
    },
  };
}
