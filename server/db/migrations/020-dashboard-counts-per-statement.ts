import { type Kysely, sql } from "kysely";

// Frozen: on PostgreSQL the dashboard's kept counts (migration 017) follow inserted and deleted
// notices and documents once per statement rather than once per row. A row trigger runs its four
// upserts for every row, so a bulk insert of a million notices (an import, a restore, a firm's
// history loaded at once) queued four million statements behind it, about 400 rows a second; a
// statement trigger reads the statement's rows as a table and writes each bucket once, grouped.
// Updates keep their row triggers: they fire only when a counted column changes (their WHEN), and
// the pipeline updates one notice at a time. SQLite has no statement triggers and keeps 017's.
// Never imports application code.

type Dialect = "sqlite" | "postgres";

const DAY = 86_400_000;
/** Notices per matter and timekeeper are kept from a day up (as in 017). */
const KEY_LEVELS = `l.size_ms >= ${DAY}`;

/** One grouped upsert of the rows of `rows` (a transition table), each counted `sign` times. */
function noticeStatements(rows: string, sign: string): string[] {
  return [
    `insert into dashboard_notice_count (firm_id, level, bucket, status, n)
     select r.firm_id, l.level, r.created_at / l.size_ms, r.status, ${sign} * count(*) from ${rows} r, dashboard_level l
     group by r.firm_id, l.level, r.created_at / l.size_ms, r.status
     on conflict (firm_id, level, bucket, status) do update set n = dashboard_notice_count.n + excluded.n`,
    `insert into dashboard_quarter_count (firm_id, level, bucket, quarter, n)
     select r.firm_id, l.level, r.created_at / l.size_ms, (r.created_at % ${DAY}) / 900000, ${sign} * count(*) from ${rows} r, dashboard_level l
     group by r.firm_id, l.level, r.created_at / l.size_ms, (r.created_at % ${DAY}) / 900000
     on conflict (firm_id, level, bucket, quarter) do update set n = dashboard_quarter_count.n + excluded.n`,
    `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
     select r.firm_id, l.level, r.created_at / l.size_ms, 'matter', c.matter_id, ${sign} * count(*)
     from ${rows} r inner join court_case c on c.id = r.case_id, dashboard_level l where c.matter_id is not null and ${KEY_LEVELS}
     group by r.firm_id, l.level, r.created_at / l.size_ms, c.matter_id
     on conflict (firm_id, level, bucket, kind, key_id) do update set n = dashboard_key_count.n + excluded.n`,
    `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
     select r.firm_id, l.level, r.created_at / l.size_ms, 'timekeeper', ct.timekeeper_id, ${sign} * count(*)
     from ${rows} r inner join case_timekeeper ct on ct.case_id = r.case_id, dashboard_level l where ${KEY_LEVELS}
     group by r.firm_id, l.level, r.created_at / l.size_ms, ct.timekeeper_id
     on conflict (firm_id, level, bucket, kind, key_id) do update set n = dashboard_key_count.n + excluded.n`,
  ];
}

function documentStatements(rows: string, sign: string): string[] {
  const counted = (condition: string) => `${sign} * sum(case when ${condition} then 1 else 0 end)`;
  return [
    `insert into dashboard_document_count (firm_id, level, bucket, received, fetched, stored, failed, sealed)
     select d.firm_id, l.level, d.created_at / l.size_ms, ${sign} * count(*), ${counted(`d.fetch_status = 'fetched'`)},
       ${counted(`d.dms_status = 'succeeded'`)}, ${counted(`d.fetch_status = 'failed' or d.dms_status = 'failed'`)},
       ${counted(`d.sealed = 1 or d.fetch_status = 'restricted'`)}
     from ${rows} d, dashboard_level l group by d.firm_id, l.level, d.created_at / l.size_ms
     on conflict (firm_id, level, bucket) do update set received = dashboard_document_count.received + excluded.received,
       fetched = dashboard_document_count.fetched + excluded.fetched, stored = dashboard_document_count.stored + excluded.stored,
       failed = dashboard_document_count.failed + excluded.failed, sealed = dashboard_document_count.sealed + excluded.sealed`,
  ];
}

interface StatementTrigger {
  /** The row trigger of 017 this one replaces (its function has the same name). */
  replaces: string;
  name: string;
  table: string;
  event: "insert" | "delete";
  body: string[];
}

const TRIGGERS: StatementTrigger[] = [
  { replaces: "dashboard_notice_added", name: "dashboard_notices_added", table: "inbox_item", event: "insert", body: noticeStatements("new_rows", "1") },
  { replaces: "dashboard_notice_removed", name: "dashboard_notices_removed", table: "inbox_item", event: "delete", body: noticeStatements("old_rows", "-1") },
  {
    replaces: "dashboard_document_added",
    name: "dashboard_documents_added",
    table: "document",
    event: "insert",
    body: documentStatements("new_rows", "1"),
  },
  {
    replaces: "dashboard_document_removed",
    name: "dashboard_documents_removed",
    table: "document",
    event: "delete",
    body: documentStatements("old_rows", "-1"),
  },
];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  for (const t of TRIGGERS) {
    const rows = t.event === "insert" ? "new table as new_rows" : "old table as old_rows";
    await sql.raw(`drop trigger ${t.replaces} on ${t.table}`).execute(db);
    await sql.raw(`drop function ${t.replaces}()`).execute(db);
    await sql
      .raw(`create function ${t.name}() returns trigger language plpgsql as $$ begin ${t.body.map((s) => `${s};`).join(" ")} return null; end $$`)
      .execute(db);
    await sql.raw(`create trigger ${t.name} after ${t.event} on ${t.table} referencing ${rows} for each statement execute function ${t.name}()`).execute(db);
  }
}
