// The rows of the dashboard benchmark: a firm with a given number of notices spread evenly over two years
// (5,000 cases, 1,000 matters, 200 clients, 300 timekeepers, two per case; one notice in four with
// a document), written by the database itself from a series of numbers, so no row crosses the
// wire, and through the triggers that keep the dashboard's counts.
import { compactDashboardCounts } from "../../server/dashboard/compact-counts";
import { openDatabase } from "../../server/db/database";
import Database from "better-sqlite3";
import pg from "pg";
import type { BackendName, PreparedData } from "./product";

export const TWO_YEARS_MS = 730 * 86_400_000;
export const CASES = 5_000;
const MATTERS = 1_000;
const CLIENTS = 200;
const TIMEKEEPERS = 300;
/** One notice in four brings a document (an envelope and its document). */
export const WITH_DOCUMENT = 4;

/** The rows, written by the database itself from a series of numbers (no row crosses the wire). */
function statements(backend: BackendName, firmId: number, now: number, notices: number): string[] {
  const series = (n: number) => (backend === "postgres" ? `generate_series(1, ${n}) as n(i)` : `n`);
  const withSeries = (n: number) => (backend === "postgres" ? "" : `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n}) `);
  const bytes = backend === "postgres" ? "decode('41', 'hex')" : "x'41'";
  const insert = (n: number, table: string, columns: string, select: string) =>
    `${withSeries(n)}insert into ${table} (${columns}) select ${select} from ${series(n)}`;
  const spacing = Math.floor(TWO_YEARS_MS / notices);
  const entity = `${firmId}, ${now}, ${now}`;
  return [
    insert(CLIENTS, "client", "id, firm_id, created_at, updated_at, name, status", `'bc-' || i, ${entity}, 'Bench client ' || i, 'active'`),
    insert(
      MATTERS,
      "matter",
      "id, firm_id, created_at, updated_at, name, status, client_id",
      `'bm-' || i, ${entity}, 'Bench matter ' || i, 'open', 'bc-' || (i % ${CLIENTS} + 1)`,
    ),
    insert(
      TIMEKEEPERS,
      "timekeeper",
      "id, firm_id, created_at, updated_at, full_name, email",
      `'bt-' || i, ${entity}, 'Bench Keeper ' || i, 'keeper' || i || '@bench.test'`,
    ),
    insert(
      CASES,
      "court_case",
      "id, firm_id, created_at, updated_at, name, case_number, case_number_normalized, matter_id",
      `'bk-' || i, ${entity}, 'Bench v. Case ' || i, '1:24-cv-' || i, '1:24-cv-' || i, 'bm-' || (i % ${MATTERS} + 1)`,
    ),
    insert(CASES, "case_timekeeper", "case_id, timekeeper_id, firm_id", `'bk-' || i, 'bt-' || (i % ${TIMEKEEPERS} + 1), ${firmId}`),
    insert(CASES, "case_timekeeper", "case_id, timekeeper_id, firm_id", `'bk-' || i, 'bt-' || ((i + 7) % ${TIMEKEEPERS} + 1), ${firmId}`),
    insert(
      notices,
      "inbox_item",
      "id, firm_id, created_at, updated_at, status, source, raw_content, raw_size, case_id",
      `'bi-' || i, ${firmId}, ${now} - i * cast(${spacing} as bigint), ${now} - i * cast(${spacing} as bigint),
       case i % 20 when 0 then 'Failed' when 1 then 'Action Required' when 2 then 'New' else 'Succeeded' end,
       'bench', ${bytes}, 1, case when i % 20 = 1 then null else 'bk-' || (i % ${CASES} + 1) end`,
    ),
    insert(
      notices / WITH_DOCUMENT,
      "envelope",
      "id, firm_id, inbox_item_id, case_id, name, created_at, updated_at",
      `'be-' || i, ${firmId}, 'bi-' || (i * ${WITH_DOCUMENT}), 'bk-' || ((i * ${WITH_DOCUMENT}) % ${CASES} + 1), 'Order', ${now} - i * cast(${WITH_DOCUMENT * spacing} as bigint), ${now}`,
    ),
    insert(
      notices / WITH_DOCUMENT,
      "document",
      "id, firm_id, envelope_id, processed_from_id, number, name, sealed, fetch_status, dms_status, created_at",
      `'bd-' || i, ${firmId}, 'be-' || i, 'bi-' || (i * ${WITH_DOCUMENT}), 1, 'Order', case when i % 50 = 0 then 1 else 0 end,
       case i % 25 when 0 then 'failed' when 1 then 'restricted' else 'fetched' end,
       case when i % 30 = 0 then 'failed' else 'succeeded' end, ${now} - i * cast(${WITH_DOCUMENT * spacing} as bigint)`,
    ),
  ];
}

/** Writes `notices` notices into the default firm; the seconds it took. */
export async function loadRows(data: PreparedData, notices: number): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  if (data.backend === "postgres") {
    const client = new pg.Client({ connectionString: data.env.DATABASE_URL });
    await client.connect();
    try {
      const firm = await client.query<{ id: number }>("select id from firm where is_default = 1");
      for (const statement of statements("postgres", firm.rows[0]!.id, now, notices)) await client.query(statement);
      // What the workers' compaction and autovacuum would have done by the time a firm has a
      // million notices: the pending rows moved into the counts, each bucket's rows folded into
      // one, statistics, and pages marked all-visible (which index-only scans of the kept counts
      // rely on).
      const database = openDatabase(data.env.DATABASE_URL!);
      await compactDashboardCounts(database).finally(() => database.close());
      await client.query("vacuum analyze");
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(`${data.env.ECFX_DATA_DIR}/ecfx.sqlite`);
    try {
      db.pragma("busy_timeout = 10000");
      const firm = db.prepare("select id from firm where is_default = 1").get() as { id: number };
      db.transaction(() => {
        for (const statement of statements("sqlite", firm.id, now, notices)) db.exec(statement);
      })();
    } finally {
      db.close();
    }
  }
  return (performance.now() - started) / 1000;
}
