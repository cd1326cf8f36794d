import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";

// Kysely sends every query unnamed, so PostgreSQL parses and plans each one anew. Here each
// connection names the texts it runs (the queries are built with parameters, so the texts
// repeat): the backend parses a named text once and keeps its plan for that connection.
// A connection names at most `size` texts (a variable IN list makes a text per length); past
// that, new texts run unnamed and the connection is closed when given back, so the pool opens
// a fresh one with none kept. A table another process changed (a migration adding a column)
// makes PostgreSQL refuse a kept `select *` whose rows would change shape: that query fails
// once, and its connection is closed when given back.

/** Texts a connection names before it runs the rest unnamed. */
export const PREPARED_PER_CONNECTION = 300;

/** PostgreSQL's code for "cached plan must not change result type". */
const CACHED_PLAN_CHANGED = "0A000";

/** The part of a pg connection the wrapper uses. */
export interface PgClient {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  release(destroy?: boolean): void;
}

/** The part of a pg pool the wrapper uses. */
export interface PgPool {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
}

class NamingClient implements PostgresPoolClient {
  private readonly names = new Map<string, string>();
  private full = false;

  constructor(
    private readonly client: PgClient,
    private readonly size: number,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(text: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof text !== "string") return this.client.query(text);
    const values = parameters ? [...parameters] : [];
    const answer = this.client.query({ text, values, name: this.nameOf(text) });
    answer.catch((error: { code?: string }) => {
      if (error?.code === CACHED_PLAN_CHANGED) this.full = true;
    });
    return answer as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release(this.full);
  }

  private nameOf(text: string): string | undefined {
    const kept = this.names.get(text);
    if (kept) return kept;
    if (this.names.size >= this.size) {
      this.full = true;
      return undefined;
    }
    const name = `ecfx_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/** The pool Kysely is given: the same connections, each naming the texts it runs. */
export function namingPool(pool: PgPool, size = PREPARED_PER_CONNECTION): PostgresPool {
  // Kysely keeps its own state per connection object: a connection is wrapped once.
  const wrapped = new WeakMap<PgClient, NamingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let naming = wrapped.get(client);
      if (!naming) {
        naming = new NamingClient(client, size);
        wrapped.set(client, naming);
      }
      return naming;
    },
    end: () => pool.end(),
  };
}
