import { type Kysely, sql } from "kysely";

// Frozen: on PostgreSQL the primary key of the notices kept per matter and timekeeper (017) also
// carries the count, so the top tens read a period's buckets from the index alone. A year is ten
// buckets of about a thousand keys each at a busy firm; fetching each row from the table as well
// cost 12,000 scattered page reads per dashboard, half of its time. (PostgreSQL needs the table's
// pages marked all-visible for that, which its autovacuum keeps up for buckets that no longer
// change.) SQLite reads its rows beside the index and stays as it is. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`alter table dashboard_key_count drop constraint dashboard_key_count_pk`.execute(db);
  await sql`alter table dashboard_key_count add constraint dashboard_key_count_pk primary key (firm_id, level, bucket, kind, key_id) include (n)`.execute(db);
}
