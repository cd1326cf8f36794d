import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect, type TransactionSettings } from "kysely";

// SQLite lets one connection write at a time. Waiting for the write lock inside SQLite (its busy
// timeout) sleeps the whole process, in steps of 1, 2, 5, 10 … ms: a worker waiting for another
// process's commit did nothing else meanwhile, not even its jobs' file writes or mail. Here the
// connection asks SQLite not to wait (busy_timeout 0) and the wait happens between tries on the
// event loop, where the process's other work goes on (decision 087).
//
// Only a try that SQLite refused whole is repeated: a statement outside a transaction (SQLite
// undoes a refused statement) and BEGIN IMMEDIATE, which takes the write lock at once or starts
// no transaction. Statements inside a transaction so begun never wait for the lock: it is held.

/** How long a write waits for its turn before it fails as SQLite's own timeout did. */
export const WRITE_TURN_TIMEOUT_MS = 5_000;

const isBusy = (error: unknown): boolean => (error as { code?: string } | null)?.code === "SQLITE_BUSY";

/** Waits before try `attempt` (0 = first retry): a turn of the event loop, then 1 ms, growing to 8 ms. */
function pause(attempt: number): Promise<void> {
  if (attempt < 3) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, Math.min(8, 2 ** (attempt - 3))));
}

/** Runs `once` again while SQLite answers busy, for up to `timeoutMs`. */
export async function inTurn<T>(once: () => Promise<T>, timeoutMs = WRITE_TURN_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await pause(attempt);
  }
}

class TurnTakingConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Inside a transaction begun IMMEDIATE the lock is held: nothing waits, nothing is repeated.
    return this.inTransaction ? this.inner.executeQuery<R>(query) : inTurn(() => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class TurnTakingDriver implements Driver {
  private readonly connections = new WeakMap<DatabaseConnection, TurnTakingConnection>();
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let connection = this.connections.get(inner);
    if (!connection) this.connections.set(inner, (connection = new TurnTakingConnection(inner)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const own = connection as TurnTakingConnection;
    await own.executeQuery(CompiledQuery.raw("begin immediate"));
    own.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as TurnTakingConnection;
    await own.executeQuery(CompiledQuery.raw("commit"));
    own.inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as TurnTakingConnection;
    try {
      await own.executeQuery(CompiledQuery.raw("rollback"));
    } finally {
      own.inTransaction = false;
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as TurnTakingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's SQLite dialect, with writes that wait for their turn without stopping the process. */
export class TurnTakingSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new TurnTakingDriver(super.createDriver());
  }
}
