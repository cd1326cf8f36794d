import { type Kysely, sql } from "kysely";

// Frozen: on PostgreSQL the large values a notice writes (its raw message, its body and what was
// parsed from it, and the mail sent for it) are compressed with lz4 instead of PostgreSQL's own
// pglz. Compressing them with pglz was about 4% of the database's CPU for a notice; lz4 does the
// same work several times faster, at about the same size. Values already written stay as they are
// (PostgreSQL reads both). A server built without lz4 keeps pglz. SQLite does not compress.
// Never imports application code.

type Dialect = "sqlite" | "postgres";

const COLUMNS: [table: string, column: string][] = [
  ["inbox_item", "raw_content"],
  ["inbox_item", "message_body"],
  ["inbox_item", "parsed"],
  ["outbound_mail", "raw"],
  ["outbound_mail", "text_body"],
  ["outbound_mail", "html_body"],
];

/** Whether this PostgreSQL server was built with lz4. */
export async function serverHasLz4<T>(db: Kysely<T>): Promise<boolean> {
  const lz4 = await sql<{ ok: boolean }>`select 'lz4' = any(enumvals) as ok from pg_settings where name = 'default_toast_compression'`.execute(db);
  return lz4.rows[0]?.ok === true;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres" || !(await serverHasLz4(db))) return;
  for (const [table, column] of COLUMNS) await sql.raw(`alter table ${table} alter column ${column} set compression lz4`).execute(db);
}
