import { type Kysely, sql } from "kysely";

// Frozen: the database keeps how many rows each firm has in its large data tables, and a version
// every write to them moves, so that a list of cases is not counted over 100,000 index entries on
// every page and a count can be kept until the table changes, whichever process changes it.
// Reading a table's state: the sum of n, and as version the pair (greatest version, rows).
// PostgreSQL appends one row per statement (a statement trigger over its transition table): writers
// never wait on each other's count row, as the dashboard's counts learnt (038); a periodic
// compaction folds a table's rows into one, always leaving a row with a new version. SQLite has one
// writer at a time and one row per firm and table, its version raised by every change.
// Never imports application code.

type Dialect = "sqlite" | "postgres";

const TABLES = ["court_case", "matter", "client", "timekeeper"];

const EVENTS = [
  { event: "insert", rows: "new", sign: "1" },
  { event: "delete", rows: "old", sign: "-1" },
  { event: "update", rows: "new", sign: "0" },
] as const;

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table firm_row_count (version bigserial not null, firm_id integer not null, table_name text not null, n bigint not null,
        added_at bigint default ((extract(epoch from clock_timestamp()) * 1000)::bigint))`,
    )
    .execute(db);
  await sql.raw(`create index firm_row_count_key on firm_row_count (firm_id, table_name) include (version, n)`).execute(db);
  await sql.raw(`create index firm_row_count_added on firm_row_count (added_at)`).execute(db);
  for (const table of TABLES) {
    for (const { event, rows, sign } of EVENTS) {
      const name = `firm_row_count_${table}_${event}`;
      const counted = sign === "0" ? "0" : `${sign} * count(*)`;
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$ begin
            insert into firm_row_count (firm_id, table_name, n) select firm_id, '${table}', ${counted} from ${rows}_rows group by firm_id;
            return null; end $$`,
        )
        .execute(db);
      await sql
        .raw(`create trigger ${name} after ${event} on ${table} referencing ${rows} table as ${rows}_rows for each statement execute function ${name}()`)
        .execute(db);
    }
    await sql.raw(`insert into firm_row_count (firm_id, table_name, n) select firm_id, '${table}', count(*) from ${table} group by firm_id`).execute(db);
  }
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table firm_row_count (firm_id integer not null, table_name text not null, n integer not null, version integer not null,
        primary key (firm_id, table_name))`,
    )
    .execute(db);
  for (const table of TABLES) {
    for (const { event, rows, sign } of EVENTS) {
      await sql
        .raw(
          `create trigger firm_row_count_${table}_${event} after ${event} on ${table} for each row begin
            insert into firm_row_count (firm_id, table_name, n, version) values (${rows}.firm_id, '${table}', ${sign}, 1)
            on conflict (firm_id, table_name) do update set n = n + ${sign}, version = version + 1; end`,
        )
        .execute(db);
    }
    await sql
      .raw(`insert into firm_row_count (firm_id, table_name, n, version) select firm_id, '${table}', count(*), 1 from ${table} group by firm_id`)
      .execute(db);
  }
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await (dialect === "postgres" ? postgres(db) : sqlite(db));
}
