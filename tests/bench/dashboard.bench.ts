// The dashboard of a firm with 1,000,000 notices over two years, for "last year": the API's
// answer and the console page, on SQLite and PostgreSQL, with the cache off so that every request
// counts again (ECFX_DASHBOARD_CACHE_SECONDS=0; with the default 30 s almost every request is a hit).
// Beside each figure, the same run's baseline (GET /api/v1/firm: sign-in check and one row) and
// the ratio to it, so that runs on other machines can be compared. The rows are written with the
// triggers that keep the dashboard's counts (migration 017), so the write time includes them.
// Run: npx tsx tests/bench/dashboard.bench.ts [notices] [requests] [sqlite|postgres]
import { CASES, WITH_DOCUMENT, loadRows } from "./dashboard-data";
import { type BackendName, findPostgres, prepareData, startProduct } from "./product";
import { apiToken, consoleCookie } from "./search";
import { type Summary, sample, summarise } from "./stats";

const NOTICES = Number(process.argv[2] ?? 1_000_000);
const REQUESTS = Number(process.argv[3] ?? 100);
const ONLY = process.argv[4];
const AIM_MS = 50;

async function benchBackend(backend: BackendName, pgUrl?: string): Promise<string[]> {
  const data = await prepareData(backend, pgUrl);
  Object.assign(data.env, { ECFX_DEMO_DATA: "false", ECFX_DASHBOARD_CACHE_SECONDS: "0" });
  const lines: string[] = [];
  let log = () => "";
  try {
    const product = await startProduct(data);
    log = product.log;
    try {
      const seconds = await loadRows(data, NOTICES);
      lines.push(`${backend}: ${NOTICES} notices over two years, ${NOTICES / WITH_DOCUMENT} documents, ${CASES} cases written in ${seconds.toFixed(1)} s`);
      // Loading takes about as long as the API keeps an idle connection (72 s): the connection the
      // start-up check left may close just as it is used again, so one request takes it first.
      await fetch(`${product.apiUrl}/api/v1/health`).catch(() => undefined);
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
    // fetch's own message ("fetch failed") says nothing; its cause names the socket's error.
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const why = cause ? ` (${cause.code ?? ""} ${cause.message ?? ""})` : "";
    lines.push(`${backend}: FAILED ${(error as Error).message}${why}\n${(error as Error).stack ?? ""}\n${log().slice(-2_000)}`);
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
