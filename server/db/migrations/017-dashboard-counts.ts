import { type Kysely, sql } from "kysely";

// Frozen: the dashboard's kept counts. Each firm's notices, documents and notices per matter and
// per timekeeper are counted in UTC time buckets of several sizes (a ladder of an hour, a day, and
// days doubling to 256, each size dividing the next), so that any period is a few buckets rather
// than a scan of its notices. Notices are also counted per UTC quarter hour of the day, so that any zone (every
// offset in use is a whole number of quarter hours: India +5:30, Nepal +5:45) regroups them into
// its local hours. Database triggers keep the counts: every write path, from the pipeline to a
// bulk insert, updates them in the same transaction. Never imports application code.

type Dialect = "sqlite" | "postgres";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The bucket sizes: an hour, then days doubling to 256; the dashboard reads them from `dashboard_level`. */
const LEVELS = [HOUR, ...Array.from({ length: 9 }, (_, i) => DAY * 2 ** i)];
/** Notices per matter and timekeeper are kept from a day up: the hours at a period's ends are counted from the rows. */
const KEY_LEVELS = `l.size_ms >= ${DAY}`;

/** A row's contribution to each table, for the row named `r` (NEW or OLD) counted `sign` times. */
function noticeEffects(r: string, sign: string): string[] {
  const bucket = `${r}.created_at / l.size_ms`;
  return [
    `insert into dashboard_notice_count (firm_id, level, bucket, status, n)
     select ${r}.firm_id, l.level, ${bucket}, ${r}.status, ${sign} from dashboard_level l where true
     on conflict (firm_id, level, bucket, status) do update set n = dashboard_notice_count.n + excluded.n`,
    `insert into dashboard_quarter_count (firm_id, level, bucket, quarter, n)
     select ${r}.firm_id, l.level, ${bucket}, (${r}.created_at % ${DAY}) / 900000, ${sign} from dashboard_level l where true
     on conflict (firm_id, level, bucket, quarter) do update set n = dashboard_quarter_count.n + excluded.n`,
    ...keyEffects(r, sign),
  ];
}

/** Notices per matter (through the case) and per timekeeper (through the case's assignments). */
function keyEffects(r: string, sign: string): string[] {
  const bucket = `${r}.created_at / l.size_ms`;
  const upsert = `on conflict (firm_id, level, bucket, kind, key_id) do update set n = dashboard_key_count.n + excluded.n`;
  return [
    `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
     select ${r}.firm_id, l.level, ${bucket}, 'matter', c.matter_id, ${sign} from court_case c, dashboard_level l
     where c.id = ${r}.case_id and c.matter_id is not null and ${KEY_LEVELS} ${upsert}`,
    `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
     select ${r}.firm_id, l.level, ${bucket}, 'timekeeper', ct.timekeeper_id, ${sign} from case_timekeeper ct, dashboard_level l
     where ct.case_id = ${r}.case_id and ${KEY_LEVELS} ${upsert}`,
  ];
}

/** All notices of a case counted for one matter or timekeeper, `sign` times (a link made or undone). */
function caseNoticesFor(caseId: string, kind: "matter" | "timekeeper", keyId: string, sign: string): string {
  const bucket = `i.created_at / l.size_ms`;
  return `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
    select i.firm_id, l.level, ${bucket}, '${kind}', ${keyId}, ${sign} * count(*) from inbox_item i, dashboard_level l
    where i.case_id = ${caseId} and ${keyId} is not null and ${KEY_LEVELS} group by i.firm_id, l.level, ${bucket}
    on conflict (firm_id, level, bucket, kind, key_id) do update set n = dashboard_key_count.n + excluded.n`;
}

function documentEffects(r: string, sign: string): string[] {
  const when = (condition: string) => `case when ${condition} then ${sign} else 0 end`;
  return [
    `insert into dashboard_document_count (firm_id, level, bucket, received, fetched, stored, failed, sealed)
     select ${r}.firm_id, l.level, ${r}.created_at / l.size_ms, ${sign}, ${when(`${r}.fetch_status = 'fetched'`)},
       ${when(`${r}.dms_status = 'succeeded'`)}, ${when(`${r}.fetch_status = 'failed' or ${r}.dms_status = 'failed'`)},
       ${when(`${r}.sealed = 1 or ${r}.fetch_status = 'restricted'`)}
     from dashboard_level l where true
     on conflict (firm_id, level, bucket) do update set received = dashboard_document_count.received + excluded.received,
       fetched = dashboard_document_count.fetched + excluded.fetched, stored = dashboard_document_count.stored + excluded.stored,
       failed = dashboard_document_count.failed + excluded.failed, sealed = dashboard_document_count.sealed + excluded.sealed`,
  ];
}

interface Trigger {
  name: string;
  table: string;
  event: string;
  when?: string;
  body: string[];
}

const same = (...columns: string[]) => columns.map((c) => `OLD.${c} = NEW.${c}`).join(" and ");
const changed = (...columns: string[]) => columns.map((c) => `OLD.${c} is distinct from NEW.${c}`).join(" or ");

const TRIGGERS: Trigger[] = [
  { name: "dashboard_notice_added", table: "inbox_item", event: "insert", body: noticeEffects("NEW", "1") },
  { name: "dashboard_notice_removed", table: "inbox_item", event: "delete", body: noticeEffects("OLD", "-1") },
  // A notice that changes its time or firm moves in every table; otherwise only what changed moves.
  {
    name: "dashboard_notice_moved",
    table: "inbox_item",
    event: "update of created_at, firm_id",
    when: changed("created_at", "firm_id"),
    body: [...noticeEffects("OLD", "-1"), ...noticeEffects("NEW", "1")],
  },
  {
    name: "dashboard_notice_state",
    table: "inbox_item",
    event: "update of status",
    when: `(${changed("status")}) and ${same("created_at", "firm_id")}`,
    body: [noticeEffects("OLD", "-1")[0]!, noticeEffects("NEW", "1")[0]!],
  },
  {
    name: "dashboard_notice_case",
    table: "inbox_item",
    event: "update of case_id",
    when: `(${changed("case_id")}) and ${same("created_at", "firm_id")}`,
    body: [...keyEffects("OLD", "-1"), ...keyEffects("NEW", "1")],
  },
  {
    name: "dashboard_case_matter",
    table: "court_case",
    event: "update of matter_id",
    when: changed("matter_id"),
    body: [caseNoticesFor("OLD.id", "matter", "OLD.matter_id", "-1"), caseNoticesFor("NEW.id", "matter", "NEW.matter_id", "1")],
  },
  {
    name: "dashboard_case_keeper_added",
    table: "case_timekeeper",
    event: "insert",
    body: [caseNoticesFor("NEW.case_id", "timekeeper", "NEW.timekeeper_id", "1")],
  },
  {
    name: "dashboard_case_keeper_removed",
    table: "case_timekeeper",
    event: "delete",
    body: [caseNoticesFor("OLD.case_id", "timekeeper", "OLD.timekeeper_id", "-1")],
  },
  {
    name: "dashboard_case_keeper_changed",
    table: "case_timekeeper",
    event: "update of case_id, timekeeper_id",
    when: changed("case_id", "timekeeper_id"),
    body: [caseNoticesFor("OLD.case_id", "timekeeper", "OLD.timekeeper_id", "-1"), caseNoticesFor("NEW.case_id", "timekeeper", "NEW.timekeeper_id", "1")],
  },
  { name: "dashboard_document_added", table: "document", event: "insert", body: documentEffects("NEW", "1") },
  { name: "dashboard_document_removed", table: "document", event: "delete", body: documentEffects("OLD", "-1") },
  {
    name: "dashboard_document_changed",
    table: "document",
    event: "update of fetch_status, dms_status, sealed, created_at, firm_id",
    when: changed("fetch_status", "dms_status", "sealed", "created_at", "firm_id"),
    body: [...documentEffects("OLD", "-1"), ...documentEffects("NEW", "1")],
  },
];

function triggerStatements(t: Trigger, dialect: Dialect): string[] {
  if (dialect === "sqlite") {
    // SQLite has no IS DISTINCT FROM; its IS NOT compares NULLs the same way.
    const when = t.when ? ` when ${t.when.replaceAll("is distinct from", "is not")}` : "";
    return [`create trigger ${t.name} after ${t.event} on ${t.table} for each row${when} begin ${t.body.map((s) => `${s};`).join(" ")} end`];
  }
  const when = t.when ? ` when (${t.when})` : "";
  return [
    `create function ${t.name}() returns trigger language plpgsql as $$ begin ${t.body.map((s) => `${s};`).join(" ")} return null; end $$`,
    `create trigger ${t.name} after ${t.event} on ${t.table} for each row${when} execute function ${t.name}()`,
  ];
}

/** The counts of the rows already there, written the way the triggers would have. */
const BACKFILL = [
  `insert into dashboard_notice_count (firm_id, level, bucket, status, n)
   select i.firm_id, l.level, i.created_at / l.size_ms, i.status, count(*) from inbox_item i, dashboard_level l
   group by i.firm_id, l.level, i.created_at / l.size_ms, i.status`,
  `insert into dashboard_quarter_count (firm_id, level, bucket, quarter, n)
   select i.firm_id, l.level, i.created_at / l.size_ms, (i.created_at % ${DAY}) / 900000, count(*) from inbox_item i, dashboard_level l
   group by i.firm_id, l.level, i.created_at / l.size_ms, (i.created_at % ${DAY}) / 900000`,
  `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
   select i.firm_id, l.level, i.created_at / l.size_ms, 'matter', c.matter_id, count(*)
   from inbox_item i inner join court_case c on c.id = i.case_id, dashboard_level l where c.matter_id is not null and ${KEY_LEVELS}
   group by i.firm_id, l.level, i.created_at / l.size_ms, c.matter_id`,
  `insert into dashboard_key_count (firm_id, level, bucket, kind, key_id, n)
   select i.firm_id, l.level, i.created_at / l.size_ms, 'timekeeper', ct.timekeeper_id, count(*)
   from inbox_item i inner join case_timekeeper ct on ct.case_id = i.case_id, dashboard_level l where ${KEY_LEVELS}
   group by i.firm_id, l.level, i.created_at / l.size_ms, ct.timekeeper_id`,
  `insert into dashboard_document_count (firm_id, level, bucket, received, fetched, stored, failed, sealed)
   select d.firm_id, l.level, d.created_at / l.size_ms, count(*),
     sum(case when d.fetch_status = 'fetched' then 1 else 0 end), sum(case when d.dms_status = 'succeeded' then 1 else 0 end),
     sum(case when d.fetch_status = 'failed' or d.dms_status = 'failed' then 1 else 0 end),
     sum(case when d.sealed = 1 or d.fetch_status = 'restricted' then 1 else 0 end)
   from document d, dashboard_level l group by d.firm_id, l.level, d.created_at / l.size_ms`,
];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const millis = "bigint";
  await db.schema
    .createTable("dashboard_level")
    .addColumn("level", "integer", (c) => c.primaryKey())
    .addColumn("size_ms", millis, (c) => c.notNull())
    .execute();
  await db
    .insertInto("dashboard_level" as never)
    .values(LEVELS.map((size_ms, level) => ({ level, size_ms })) as never)
    .execute();

  // No foreign keys: the triggers write here while a firm's rows are being deleted.
  const counts = (name: string, keys: string[]) =>
    db.schema
      .createTable(name)
      .addColumn("firm_id", "integer", (c) => c.notNull())
      .addColumn("level", "integer", (c) => c.notNull())
      .addColumn("bucket", millis, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${name}_pk`, ["firm_id", "level", "bucket", ...keys] as never);
  await counts("dashboard_notice_count", ["status"])
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("n", millis, (c) => c.notNull())
    .execute();
  await counts("dashboard_quarter_count", ["quarter"])
    .addColumn("quarter", "integer", (c) => c.notNull())
    .addColumn("n", millis, (c) => c.notNull())
    .execute();
  await counts("dashboard_key_count", ["kind", "key_id"])
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("n", millis, (c) => c.notNull())
    .execute();
  let documents = counts("dashboard_document_count", []);
  for (const column of ["received", "fetched", "stored", "failed", "sealed"]) documents = documents.addColumn(column, millis, (c) => c.notNull());
  await documents.execute();

  // A case's notices, for moving them when the case changes matter or timekeepers, and for the
  // exact counts of walled matters.
  await db.schema.createIndex("inbox_item_case_created_idx").on("inbox_item").columns(["case_id", "created_at"]).execute();

  for (const statement of BACKFILL) await sql.raw(statement).execute(db);
  for (const trigger of TRIGGERS) for (const statement of triggerStatements(trigger, dialect)) await sql.raw(statement).execute(db);
}
