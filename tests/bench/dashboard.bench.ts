// The dashboard of a firm with 1,000,000 notices over two years, for "last year": the API's
// answer and the console page, on SQLite and PostgreSQL, with the cache off so that every request
// counts again (ECFX_DASHBOARD_CACHE_SECONDS=0; with the default 30 s almost every request is a hit).
// Beside each figure, the same run's baseline (GET /api/v1/firm: sign-in check and one row) and
// the ratio to it, so that runs on other machines can be compared. The rows are written with the
// triggers that keep the dashboard's counts (migration 017), so the write time includes them.
// Run: npx tsx tests/bench/dashboard.bench.ts [notices] [requests] [sqlite|postgres]
import Database from "better-sqlite3";
import pg from "pg";
import { type BackendName, type PreparedData, findPostgres, prepareData, startProduct } from "./product";
import { apiToken, consoleCookie } from "./search";
import { type Summary, sample, summarise } from "./stats";

const NOTICES = Number(process.argv[2] ?? 1_000_000);
const REQUESTS = Number(process.argv[3] ?? 100);
const ONLY = process.argv[4];
const AIM_MS = 50;
const TWO_YEARS_MS = 730 * 86_400_000;
const CASES = 5_000;
const MATTERS = 1_000;
const CLIENTS = 200;
const TIMEKEEPERS = 300;
/** One notice in four brings a document (an envelope and its document). */
const WITH_DOCUMENT = 4;

/** The rows, written by the database itself from a series of numbers (no row crosses the wire). */
function statements(backend: BackendName, firmId: number, now: number): string[] {
  const series = (n: number) => (backend === "postgres" ? `generate_series(1, ${n}) as n(i)` : `n`);
  const withSeries = (n: number) => (backend === "postgres" ? "" : `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n}) `);
  const bytes = backend === "postgres" ? "decode('41', 'hex')" : "x'41'";
  const insert = (n: number, table: string, columns: string, select: string) =>
    `${withSeries(n)}insert into ${table} (${columns}) select ${select} from ${series(n)}`;
  const spacing = Math.floor(TWO_YEARS_MS / NOTICES);
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
      NOTICES,
      "inbox_item",
      "id, firm_id, created_at, updated_at, status, source, raw_content, raw_size, case_id",
      `'bi-' || i, ${firmId}, ${now} - i * cast(${spacing} as bigint), ${now} - i * cast(${spacing} as bigint),
       case i % 20 when 0 then 'Failed' when 1 then 'Action Required' when 2 then 'New' else 'Succeeded' end,
       'bench', ${bytes}, 1, case when i % 20 = 1 then null else 'bk-' || (i % ${CASES} + 1) end`,
    ),
    insert(
      NOTICES / WITH_DOCUMENT,
      "envelope",
      "id, firm_id, inbox_item_id, case_id, name, created_at, updated_at",
      `'be-' || i, ${firmId}, 'bi-' || (i * ${WITH_DOCUMENT}), 'bk-' || ((i * ${WITH_DOCUMENT}) % ${CASES} + 1), 'Order', ${now} - i * cast(${WITH_DOCUMENT * spacing} as bigint), ${now}`,
    ),
    insert(
      NOTICES / WITH_DOCUMENT,
      "document",
      "id, firm_id, envelope_id, processed_from_id, number, name, sealed, fetch_status, dms_status, created_at",
      `'bd-' || i, ${firmId}, 'be-' || i, 'bi-' || (i * ${WITH_DOCUMENT}), 1, 'Order', case when i % 50 = 0 then 1 else 0 end,
       case i % 25 when 0 then 'failed' when 1 then 'restricted' else 'fetched' end,
       case when i % 30 = 0 then 'failed' else 'succeeded' end, ${now} - i * cast(${WITH_DOCUMENT * spacing} as bigint)`,
    ),
  ];
}

async function loadRows(data: PreparedData): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  if (data.backend === "postgres") {
    const client = new pg.Client({ connectionString: data.env.DATABASE_URL });
    await client.connect();
    try {
      const firm = await client.query<{ id: number }>("select id from firm where is_default = 1");
      for (const statement of statements("postgres", firm.rows[0]!.id, now)) await client.query(statement);
      // What autovacuum would have done by the time a firm has a million notices.
      await client.query("analyze");
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(`${data.env.ECFX_DATA_DIR}/ecfx.sqlite`);
    try {
      db.pragma("busy_timeout = 10000");
      const firm = db.prepare("select id from firm where is_default = 1").get() as { id: number };
      db.transaction(() => {
        for (const statement of statements("sqlite", firm.id, now)) db.exec(statement);
      })();
    } finally {
      db.close();
    }
  }
  return (performance.now() - started) / 1000;
}

async function benchBackend(backend: BackendName, pgUrl?: string): Promise<string[]> {
  const data = await prepareData(backend, pgUrl);
  Object.assign(data.env, { ECFX_DEMO_DATA: "false", ECFX_DASHBOARD_CACHE_SECONDS: "0" });
  const lines: string[] = [];
  let log = () => "";
  try {
    const product = await startProduct(data);
    log = product.log;
    try {
      const seconds = await loadRows(data);
      lines.push(`${backend}: ${NOTICES} notices over two years, ${NOTICES / WITH_DOCUMENT} documents, ${CASES} cases written in ${seconds.toFixed(1)} s`);
      const token = await apiToken(product.apiUrl);
      const headers = { authorization: `Bearer ${token}` };
      const get = (url: string, extra: Record<string, string> = {}) => fetch(url, { headers: { ...headers, ...extra }, redirect: "manual" });
      const baseline = summarise(
        "baseline GET /api/v1/firm",
        await sample(REQUESTS, 10, async () => (await get(`${product.apiUrl}/api/v1/firm`)).ok, product.cpuMs),
      );
      const dashboardApi = summarise(
        "API /api/v1/dashboard?period=last_year",
        await sample(
          REQUESTS,
          5,
          async () => {
            const res = await get(`${product.apiUrl}/api/v1/dashboard?period=last_year`);
            const body = (await res.json()) as { notifications?: { total: number } };
            return res.ok && (body.notifications?.total ?? 0) > NOTICES / 3;
          },
          product.cpuMs,
        ),
        AIM_MS,
      );
      const cookie = await consoleCookie(product.consoleUrl);
      const page = summarise(
        "console /dashboard?period=last_year",
        await sample(
          REQUESTS,
          5,
          async () => {
            const res = await fetch(`${product.consoleUrl}/dashboard?period=last_year`, { headers: { cookie }, redirect: "manual" });
            return res.status === 200 && (await res.text()).includes("recharts-surface");
          },
          product.cpuMs,
        ),
      );
      lines.push(...[baseline, dashboardApi, page].map((s) => line(s, baseline)));
    } finally {
      await product.stop();
    }
  } catch (error) {
    lines.push(`${backend}: FAILED ${(error as Error).message}\n${log().slice(-2_000)}`);
  } finally {
    await data.cleanup();
  }
  return lines;
}

function line(s: Summary, baseline: Summary): string {
  const verdict = s.aim === undefined ? "" : s.errors > 0 ? ` (aim < ${s.aim} ms: ERRORS)` : ` (aim < ${s.aim} ms: ${s.p95 < s.aim ? "met" : "MISSED"})`;
  return `  ${s.label}: n ${s.count}, errors ${s.errors}, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, server CPU ${s.cpuMs?.toFixed(1) ?? "–"} ms/request, p95 ${(s.p95 / baseline.p95).toFixed(1)}× baseline${verdict}`;
}

// Each database's figures are printed as soon as they are measured: loading a million notices
// through the triggers that keep the counts takes a while, on PostgreSQL most of all.
async function main() {
  if (ONLY !== "postgres") console.log((await benchBackend("sqlite")).join("\n"));
  if (ONLY === "sqlite") return;
  const pgServer = await findPostgres();
  if ("url" in pgServer) console.log((await benchBackend("postgres", pgServer.url)).join("\n"));
  else console.log(`postgres: SKIPPED (${pgServer.reason})`);
}

void main().then(() => process.exit(0));
