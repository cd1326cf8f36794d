// The search workloads: API searches over the large seed and the console's case list page.
import fs from "node:fs";
import { FLUSH_EVERY_MS } from "../../server/api/call-timings";
import { FIRST_NAMES, LAST_NAMES, seededRandom } from "../../server/seed/large-names";
import { BENCH_PASSWORD } from "./product";
import { type Summary, sample, summarise } from "./stats";

export const API_AIM_MS = 20;
export const CONSOLE_AIM_MS = 100;
const ADMIN = "admin@demo.ecfx.test";
const DOCKET = /\d{2}-(?:cv|cr|mc)-\d{5}|\b\d{2}-\d{4,5}\b/;

/** What a user types in the search box: party names, companies, docket fragments. */
export function freeTextTerms(year = new Date().getUTCFullYear()): string[] {
  const random = seededRandom(42);
  const yy = (back: number) => String((year - back) % 100).padStart(2, "0");
  const terms = [
    "Smith",
    "Jones Holdings",
    "Tidewater",
    "Okafor",
    "Apex Capital",
    "United States",
    "In re Summit",
    "Nakamura v",
    "Sterling Pharmaceuticals",
    "Garcia Logistics",
    "Chen",
    "Harbor Energy",
    "State of New York",
    "Kowalski Media",
    `${yy(1)}-cv-012`,
    `1:${yy(2)}-cv-004`,
    `${yy(0)}-cr-00`,
    `${yy(3)}-10`,
    `${yy(1)}-cv-0007`,
    `2:${yy(0)}-cv`,
  ];
  for (let i = 0; i < 20; i++) terms.push(random.chance(0.5) ? random.pick(LAST_NAMES) : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`);
  return terms;
}

export async function apiToken(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: ADMIN, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`API sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Signs in through the console's own form, as a browser without JavaScript would. */
export async function consoleCookie(consoleUrl: string): Promise<string> {
  const res = await fetch(`${consoleUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: consoleUrl },
    body: new URLSearchParams({ email: ADMIN, password: BENCH_PASSWORD, from: "/dashboard" }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const session = cookies.find((c) => c.startsWith("ecfx_session="));
  if (res.status >= 400 || !session) throw new Error(`console sign-in answered ${res.status} without a session cookie`);
  return cookies.join("; ");
}

export interface SearchRun {
  summaries: Summary[];
  /** x-total-count of the unfiltered case search: proof the seed is what was measured. */
  totalCases: number;
}

/** The API's deep pages: one search, as the console page makes it, against which that page's CPU is read. */
export const DEEP_PAGE_LABEL = "API cases, sort=-case_number, pages 100-1990";

export async function runApiSearches(apiUrl: string, requests: number, cpu?: () => number): Promise<SearchRun> {
  const token = await apiToken(apiUrl);
  const headers = { authorization: `Bearer ${token}` };
  let totalCases = 0;
  const get = async (query: string, check: (rows: unknown[], total: number) => boolean) => {
    const res = await fetch(`${apiUrl}/api/v1/case/search?${query}`, { headers });
    const rows = (await res.json()) as unknown[];
    return res.ok && check(rows, Number(res.headers.get("x-total-count")));
  };
  const terms = freeTextTerms();
  const pages = seededRandom(7);
  const first = await sample(
    requests,
    20,
    () =>
      get("max=25", (rows, total) => {
        totalCases = total;
        return rows.length === 25;
      }),
    cpu,
  );
  const text = await sample(
    requests,
    20,
    (i) => get(`max=25&freeText=${encodeURIComponent(terms[i % terms.length]!)}`, (rows, total) => rows.length <= 25 && total >= rows.length),
    cpu,
  );
  const deep = await sample(
    requests,
    20,
    () => {
      // Pages 100 to 1,990 of 50: the deep end of a 100,000-case list.
      const page = pages.int(100, 1_990);
      return get(`max=50&offset=${(page - 1) * 50}&sort=-case_number`, (rows) => rows.length === 50);
    },
    cpu,
  );
  // The same deep pages as the pager's next link asks them, with the cursor the page before
  // answered (decision 121), beside them by number; then both for a search by text, a list that
  // keeps no anchors (decision 064), where a page by number reads every match before it.
  const lastPage = async (query: string) => {
    const res = await fetch(`${apiUrl}/api/v1/case/search?max=1&${query}`, { headers });
    await res.arrayBuffer();
    return Math.min(1_990, Math.floor(Number(res.headers.get("x-total-count")) / 50));
  };
  const byLink = async (query: string, from: number, to: number) => {
    const linked: string[] = [];
    for (let i = 0; i < requests + 20; i++) {
      const page = pages.int(from, to);
      const res = await fetch(`${apiUrl}/api/v1/case/search?max=50&offset=${(page - 2) * 50}&${query}`, { headers });
      await res.arrayBuffer();
      linked.push(`max=50&offset=${(page - 1) * 50}&${query}&after=${res.headers.get("x-next-cursor") ?? ""}`);
    }
    return linked;
  };
  const full = (rows: unknown[]) => rows.length === 50;
  const deepLinked = await byLink("sort=-case_number", 100, 1_990);
  const deepByLink = await sample(requests, 20, (i) => get(deepLinked[i]!, full), cpu);
  const TEXT = "sort=-case_number&freeText=cv";
  const textLast = await lastPage(TEXT);
  const textFrom = Math.max(2, Math.floor(textLast / 20));
  const textDeep = await sample(requests, 20, () => get(`max=50&offset=${(pages.int(textFrom, textLast) - 1) * 50}&${TEXT}`, full), cpu);
  const textLinked = await byLink(TEXT, textFrom, textLast);
  const textByLink = await sample(requests, 20, (i) => get(textLinked[i]!, full), cpu);
  const textPages = `pages ${textFrom}-${textLast}`;
  return {
    totalCases,
    summaries: [
      summarise("API cases, first page (default sort)", first, API_AIM_MS),
      summarise("API cases, free text", text, API_AIM_MS),
      summarise(DEEP_PAGE_LABEL, deep, API_AIM_MS),
      summarise("API cases, the same pages by the next link (cursor)", deepByLink, API_AIM_MS),
      summarise(`API cases, free text "cv", sort=-case_number, ${textPages}`, textDeep, API_AIM_MS),
      summarise(`API cases, free text "cv", the same pages by the next link (cursor)`, textByLink, API_AIM_MS),
    ],
  };
}

export const CONSOLE_PAGE = "/cases?page=500&size=50&sort=-case_number";
/** The baseline: the same 50 rows drawn by the plainest page of the console's stack, without the API. */
export const BARE_PAGE = "/bench/bare-table";

/** What one kind of console page costs, apart from its latency. */
export interface PageCost {
  label: string;
  summary: Summary;
  /** CPU per page of the console's processes, and of the API's process (with its database backends). */
  consoleCpuMs: number;
  apiCpuMs: number;
  /** The HTML of one page, uncompressed. */
  htmlBytes: number;
  /** Signed-in API calls per page once the session is warm (the API's own timings count them). */
  apiCalls: number;
}

export interface ConsolePageRun {
  page: PageCost;
  bare: PageCost;
}

interface ProductMeters {
  consoleCpuMs(): number;
  apiCpuMs(): number;
}

/**
 * Signed-in API calls the firm made so far, by the API's own count (/api/v1/slow-calls). The
 * answering copy of the API writes its waiting calls first, the others on their own clock: after
 * one round of it, every call made before is counted, and none is counted in the wrong run.
 */
async function apiCallCount(apiUrl: string, token: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, FLUSH_EVERY_MS + 500));
  const res = await fetch(`${apiUrl}/api/v1/slow-calls`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`slow-calls answered ${res.status}`);
  const routes = (await res.json()) as { route: string; count: number }[];
  // Not the count's own calls.
  return routes.filter((r) => r.route !== "/api/v1/slow-calls").reduce((n, r) => n + r.count, 0);
}

async function measurePage(
  label: string,
  url: string,
  cookie: string,
  requests: number,
  meters: ProductMeters & { apiUrl: string; token: string; cpu?: () => number },
): Promise<PageCost> {
  let htmlBytes = 0;
  const request = async () => {
    const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
    const html = await res.text();
    htmlBytes = Buffer.byteLength(html);
    return res.status === 200 && DOCKET.test(html);
  };
  for (let i = 0; i < 10; i++) await request();
  const callsBefore = await apiCallCount(meters.apiUrl, meters.token);
  const [consoleBefore, apiBefore] = [meters.consoleCpuMs(), meters.apiCpuMs()];
  const result = await sample(requests, 0, request, meters.cpu);
  const [consoleAfter, apiAfter] = [meters.consoleCpuMs(), meters.apiCpuMs()];
  const calls = (await apiCallCount(meters.apiUrl, meters.token)) - callsBefore;
  return {
    label,
    summary: summarise(label, result, CONSOLE_AIM_MS),
    consoleCpuMs: (consoleAfter - consoleBefore) / requests,
    apiCpuMs: (apiAfter - apiBefore) / requests,
    htmlBytes,
    apiCalls: calls / requests,
  };
}

/** Asks the API once for the list page's 50 rows and writes them where the bare page reads them. */
export async function writeBareRows(apiUrl: string, token: string, file: string): Promise<void> {
  const rows = await fetch(`${apiUrl}/api/v1/case/search?max=50&offset=${499 * 50}&sort=-case_number`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!rows.ok) throw new Error(`the bare page's rows: the API answered ${rows.status}`);
  fs.writeFileSync(file, JSON.stringify(await rows.json()));
}

/**
 * The console's case list page, and the bare baseline beside it in the same run: first the page's
 * 50 rows are asked of the API once and written where the bare page reads them.
 */
export async function runConsolePage(
  product: ProductMeters & { consoleUrl: string; apiUrl: string; bareRowsFile: string; cpuMs?: () => number },
  requests: number,
): Promise<ConsolePageRun> {
  const token = await apiToken(product.apiUrl);
  await writeBareRows(product.apiUrl, token, product.bareRowsFile);
  const cookie = await consoleCookie(product.consoleUrl);
  const meters = { ...product, token, cpu: product.cpuMs };
  return {
    page: await measurePage(`console ${CONSOLE_PAGE}`, `${product.consoleUrl}${CONSOLE_PAGE}`, cookie, requests, meters),
    bare: await measurePage(`console ${BARE_PAGE} (baseline)`, `${product.consoleUrl}${BARE_PAGE}`, cookie, requests, meters),
  };
}
