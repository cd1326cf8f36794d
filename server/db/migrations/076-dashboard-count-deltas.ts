import { type Kysely, sql } from "kysely";

// Frozen: on PostgreSQL the triggers that keep the dashboard's counts (017, 020, 038) write fewer
// rows. Each count row is a heap row, two index entries and their WAL, once per level (ten), so
// they were about a third of what PostgreSQL did for a notice. A document's change that leaves what
// the dashboard counts as it was (a fetch started, a copy skipped) writes nothing; one that changes
// it writes one row per level with the difference, where it wrote the old row's negation and the
// new row. A notice's new status is one statement, not two. A document or notice that changes its
// time or firm still moves in full. SQLite keeps its upserts, which update one row per level in
// place. Never imports application code.

type Dialect = "sqlite" | "postgres";

/** What the dashboard counts of a document, as 0 or 1 each, for `r` (OLD or NEW); 077 counts the same. */
export function counted(r: string): string[] {
  const flag = (condition: string) => `(case when ${condition} then 1 else 0 end)`;
  return [
    flag(`${r}.fetch_status = 'fetched'`),
    flag(`${r}.dms_status = 'succeeded'`),
    flag(`${r}.fetch_status = 'failed' or ${r}.dms_status = 'failed'`),
    flag(`${r}.sealed = 1 or ${r}.fetch_status = 'restricted'`),
  ];
}

const sameTimeAndFirm = "OLD.created_at = NEW.created_at and OLD.firm_id = NEW.firm_id";
const movedTimeOrFirm = "OLD.created_at is distinct from NEW.created_at or OLD.firm_id is distinct from NEW.firm_id";

function documentRows(r: string, sign: string): string {
  const [fetched, stored, failed, sealed] = counted(r).map((flag) => `${sign} * ${flag}`);
  return `insert into dashboard_document_count (firm_id, level, bucket, received, fetched, stored, failed, sealed)
    select ${r}.firm_id, l.level, ${r}.created_at / l.size_ms, ${sign}, ${fetched}, ${stored}, ${failed}, ${sealed} from dashboard_level l`;
}

async function replaceTrigger(db: Kysely<unknown>, name: string, table: string, event: string, when: string, body: string[]): Promise<void> {
  await sql
    .raw(`create or replace function ${name}() returns trigger language plpgsql as $$ begin ${body.map((s) => `${s};`).join(" ")} return null; end $$`)
    .execute(db);
  await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
  await sql.raw(`create trigger ${name} after ${event} on ${table} for each row when (${when}) execute function ${name}()`).execute(db);
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  const [oldFlags, newFlags] = [counted("OLD"), counted("NEW")];
  const documentColumns = "update of fetch_status, dms_status, sealed, created_at, firm_id";

  // The old trigger did both cases below; its function goes with it.
  await sql.raw(`drop trigger if exists dashboard_document_changed on document`).execute(db);
  await sql.raw(`drop function if exists dashboard_document_changed()`).execute(db);
  await replaceTrigger(db, "dashboard_document_moved", "document", documentColumns, movedTimeOrFirm, [documentRows("OLD", "-1"), documentRows("NEW", "1")]);
  await replaceTrigger(
    db,
    "dashboard_document_counted",
    "document",
    documentColumns,
    `${sameTimeAndFirm} and row(${oldFlags.join(", ")}) is distinct from row(${newFlags.join(", ")})`,
    [
      `insert into dashboard_document_count (firm_id, level, bucket, received, fetched, stored, failed, sealed)
       select NEW.firm_id, l.level, NEW.created_at / l.size_ms, 0, ${newFlags.map((flag, i) => `${flag} - ${oldFlags[i]}`).join(", ")}
       from dashboard_level l`,
    ],
  );

  await replaceTrigger(db, "dashboard_notice_state", "inbox_item", "update of status", `OLD.status is distinct from NEW.status and ${sameTimeAndFirm}`, [
    `insert into dashboard_notice_count (firm_id, level, bucket, status, n)
     select NEW.firm_id, l.level, NEW.created_at / l.size_ms, s.status, s.n
     from dashboard_level l cross join (values (OLD.status, -1), (NEW.status, 1)) as s(status, n)`,
  ]);
}
