import { type Kysely, sql } from "kysely";
import { counted } from "./076-dashboard-count-deltas";

// Frozen: on PostgreSQL a change the dashboard counts (017, 020, 038, 076) writes one row per sign
// into a pending table beside each count table, at the hour it falls in (at the day for the counts
// per matter and timekeeper, which are kept from a day up), instead of one row per level (ten) into
// the count table. The count rows were the most rows the product wrote for a notice: about 128 heap
// rows and 256 index entries. The compaction (server/dashboard/compact-counts.ts) moves the pending
// rows into every level's count rows, grouped, and deletes them, in one transaction; the dashboard
// reads the pending rows of the buckets it asks for in the same statement as the count rows, so a
// compaction committing between two reads neither loses a change nor counts it twice. A notice or
// document moved in time or to another firm writes its old rows' negation and its new rows as
// pending rows too. SQLite keeps its upserts, which update one row per level in place.
// Never imports application code; what it counts of a document is 076's (`counted`).

type Dialect = "sqlite" | "postgres";

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The start of the hour, or of the day, that the time `t` (milliseconds) falls in. */
const hourOf = (t: string) => `${t} / ${HOUR} * ${HOUR}`;
const dayOf = (t: string) => `${t} / ${DAY} * ${DAY}`;

/** Each count table's pending table: what it is keyed by beside the firm and the start of its hour (day), and what it counts. */
const PENDING: [table: string, columns: string][] = [
  ["dashboard_notice_pending", "status text not null, n bigint not null"],
  ["dashboard_quarter_pending", "quarter integer not null, n bigint not null"],
  ["dashboard_key_pending", "kind text not null, key_id text not null, n bigint not null"],
  ["dashboard_document_pending", "received bigint not null, fetched bigint not null, stored bigint not null, failed bigint not null, sealed bigint not null"],
];

/** The pending rows of the notices of `rows` (a transition table), each counted `sign` times, grouped. */
function noticesPending(rows: string, sign: string): string[] {
  return [
    `insert into dashboard_notice_pending (firm_id, starts_at, status, n)
     select r.firm_id, ${hourOf("r.created_at")}, r.status, ${sign} * count(*) from ${rows} r group by 1, 2, 3`,
    `insert into dashboard_quarter_pending (firm_id, starts_at, quarter, n)
     select r.firm_id, ${hourOf("r.created_at")}, (r.created_at % ${DAY}) / 900000, ${sign} * count(*) from ${rows} r group by 1, 2, 3`,
    `insert into dashboard_key_pending (firm_id, starts_at, kind, key_id, n)
     select r.firm_id, ${dayOf("r.created_at")}, 'matter', c.matter_id, ${sign} * count(*)
     from ${rows} r inner join court_case c on c.id = r.case_id where c.matter_id is not null group by 1, 2, 4`,
    `insert into dashboard_key_pending (firm_id, starts_at, kind, key_id, n)
     select r.firm_id, ${dayOf("r.created_at")}, 'timekeeper', ct.timekeeper_id, ${sign} * count(*)
     from ${rows} r inner join case_timekeeper ct on ct.case_id = r.case_id group by 1, 2, 4`,
  ];
}

/** The pending rows of the documents of `rows` (a transition table), each counted `sign` times, grouped. */
function documentsPending(rows: string, sign: string): string {
  const sums = counted("d").map((flag) => `${sign} * sum${flag}`);
  return `insert into dashboard_document_pending (firm_id, starts_at, received, fetched, stored, failed, sealed)
    select d.firm_id, ${hourOf("d.created_at")}, ${sign} * count(*), ${sums.join(", ")} from ${rows} d group by 1, 2`;
}

/** The counts per matter and timekeeper of one notice, `r` (OLD or NEW), counted `sign` times. */
function noticeKeysPending(r: string, sign: string): string[] {
  return [
    `insert into dashboard_key_pending (firm_id, starts_at, kind, key_id, n)
     select ${r}.firm_id, ${dayOf(`${r}.created_at`)}, 'matter', c.matter_id, ${sign} from court_case c
     where c.id = ${r}.case_id and c.matter_id is not null`,
    `insert into dashboard_key_pending (firm_id, starts_at, kind, key_id, n)
     select ${r}.firm_id, ${dayOf(`${r}.created_at`)}, 'timekeeper', ct.timekeeper_id, ${sign} from case_timekeeper ct
     where ct.case_id = ${r}.case_id`,
  ];
}

/** All notices of a case counted for one matter or timekeeper, `sign` times (a link made or undone), one row per day. */
function caseNoticesPending(caseId: string, kind: "matter" | "timekeeper", keyId: string, sign: string): string {
  return `insert into dashboard_key_pending (firm_id, starts_at, kind, key_id, n)
    select i.firm_id, ${dayOf("i.created_at")}, '${kind}', ${keyId}, ${sign} * count(*) from inbox_item i
    where i.case_id = ${caseId} and ${keyId} is not null group by 1, 2`;
}

/** The functions of the triggers of 017, 020 and 076, by name, and their new bodies. */
function bodies(): Record<string, string[]> {
  const [oldFlags, newFlags] = [counted("OLD"), counted("NEW")];
  const noticeRow = (r: string, sign: string) => `(${r}.firm_id, ${hourOf(`${r}.created_at`)}, ${r}.status, ${sign})`;
  const quarterRow = (r: string, sign: string) => `(${r}.firm_id, ${hourOf(`${r}.created_at`)}, (${r}.created_at % ${DAY}) / 900000, ${sign})`;
  const documentRow = (r: string, sign: string) =>
    `(${r}.firm_id, ${hourOf(`${r}.created_at`)}, ${sign}, ${counted(r)
      .map((flag) => `${sign} * ${flag}`)
      .join(", ")})`;
  return {
    dashboard_notices_added: noticesPending("new_rows", "1"),
    dashboard_notices_removed: noticesPending("old_rows", "-1"),
    dashboard_documents_added: [documentsPending("new_rows", "1")],
    dashboard_documents_removed: [documentsPending("old_rows", "-1")],
    dashboard_notice_moved: [
      `insert into dashboard_notice_pending (firm_id, starts_at, status, n) values ${noticeRow("OLD", "-1")}, ${noticeRow("NEW", "1")}`,
      `insert into dashboard_quarter_pending (firm_id, starts_at, quarter, n) values ${quarterRow("OLD", "-1")}, ${quarterRow("NEW", "1")}`,
      ...noticeKeysPending("OLD", "-1"),
      ...noticeKeysPending("NEW", "1"),
    ],
    dashboard_notice_state: [
      `insert into dashboard_notice_pending (firm_id, starts_at, status, n)
       values (NEW.firm_id, ${hourOf("NEW.created_at")}, OLD.status, -1), (NEW.firm_id, ${hourOf("NEW.created_at")}, NEW.status, 1)`,
    ],
    dashboard_notice_case: [...noticeKeysPending("OLD", "-1"), ...noticeKeysPending("NEW", "1")],
    dashboard_case_matter: [caseNoticesPending("OLD.id", "matter", "OLD.matter_id", "-1"), caseNoticesPending("NEW.id", "matter", "NEW.matter_id", "1")],
    dashboard_case_keeper_added: [caseNoticesPending("NEW.case_id", "timekeeper", "NEW.timekeeper_id", "1")],
    dashboard_case_keeper_removed: [caseNoticesPending("OLD.case_id", "timekeeper", "OLD.timekeeper_id", "-1")],
    dashboard_case_keeper_changed: [
      caseNoticesPending("OLD.case_id", "timekeeper", "OLD.timekeeper_id", "-1"),
      caseNoticesPending("NEW.case_id", "timekeeper", "NEW.timekeeper_id", "1"),
    ],
    dashboard_document_moved: [
      `insert into dashboard_document_pending (firm_id, starts_at, received, fetched, stored, failed, sealed)
       values ${documentRow("OLD", "-1")}, ${documentRow("NEW", "1")}`,
    ],
    dashboard_document_counted: [
      `insert into dashboard_document_pending (firm_id, starts_at, received, fetched, stored, failed, sealed)
       values (NEW.firm_id, ${hourOf("NEW.created_at")}, 0, ${newFlags.map((flag, i) => `${flag} - ${oldFlags[i]}`).join(", ")})`,
    ],
  };
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  for (const [table, columns] of PENDING) {
    // No foreign keys, as for the count tables: the triggers write here while a firm's rows are being deleted.
    await sql.raw(`create table ${table} (firm_id integer not null, starts_at bigint not null, ${columns})`).execute(db);
    // The dashboard reads a firm's pending rows of the period it shows. The rows are new (they live
    // about half a minute), so their table pages are read anyway: the index carries no counts.
    await sql.raw(`create index ${table}_key on ${table} (firm_id, starts_at)`).execute(db);
  }
  // Each trigger keeps its event and its WHEN; only what its function writes changes.
  for (const [name, body] of Object.entries(bodies())) {
    await sql
      .raw(`create or replace function ${name}() returns trigger language plpgsql as $$ begin ${body.map((s) => `${s};`).join(" ")} return null; end $$`)
      .execute(db);
  }
}
