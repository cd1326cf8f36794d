import { PAGE_SIZES } from "./paging";

// Table state lives in the URL (?q=&sort=-created_at&page=3&size=50&filter.status=open
// &filter.created_at=2026-01-01..2026-01-31&quick=recent): the loader reads it, both table
// renderers write it, and the same state becomes the API's search or export query. The pager's
// previous and next links also carry the API's cursor for that page (`before` or `after`,
// decision 121): the page is then found from the row next to it; without one, by its number.

export type PageSize = (typeof PAGE_SIZES)[number];
export type QuickFilter = "all" | "recent" | "notMapped";
export const QUICK_FILTERS: readonly QuickFilter[] = ["all", "recent", "notMapped"];
export type FilterKind = "text" | "select" | "dateRange" | "reference";

/** What a table allows: the URL is checked against it, never trusted. */
export interface TableSpec {
  defaultSort: string;
  defaultSize: PageSize;
  sortable: readonly string[];
  filters: Readonly<Record<string, { kind: FilterKind; options?: readonly string[] }>>;
  /** The entity records when rows were created, so Recent means something. */
  recent: boolean;
  notMapped: boolean;
}

export interface TableState {
  q: string;
  /** Comma list of fields, `-` before a field sorts it descending. */
  sort: string;
  page: number;
  size: PageSize;
  /** Field → value: text, option(s) as a comma list, id(s), or a date range `from..to`. */
  filters: Record<string, string>;
  quick: QuickFilter;
  /** The API's cursor of this page, from the previous page's next link (`after`) or the next page's previous link (`before`). */
  after: string;
  before: string;
}

export interface ParsedTableUrl {
  state: TableState;
  /** A date range given with one date only, kept so the form can show it with the message. */
  partialRanges: Record<string, { from: string; to: string }>;
  /** Field → catalogue key of what is wrong with its filter. */
  errors: Record<string, string>;
  /** The URL holds form leftovers (empty inputs, a range as two inputs): the canonical URL differs. */
  needsCanonical: boolean;
}

const MAX_TEXT = 200;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const STATE_KEYS = new Set(["q", "sort", "page", "size", "quick", "after", "before"]);
/** A cursor is the API's opaque base64url text; anything else is left out of the state. */
const CURSOR = /^[A-Za-z0-9_-]{1,4000}$/;
export const FILTER_PREFIX = "filter.";
export const rangeInputName = (field: string, end: "from" | "to") => `${FILTER_PREFIX}${field}.${end}`;

function isValidDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

/** Only sortable fields survive; an empty result falls back to the default sort. */
function cleanSort(raw: string | null, spec: TableSpec): string {
  const parts = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s && spec.sortable.includes(s.replace(/^-/, "")));
  const unique = parts.filter((s, i) => parts.findIndex((p) => p.replace(/^-/, "") === s.replace(/^-/, "")) === i);
  return unique.length ? unique.join(",") : spec.defaultSort;
}

function cleanRange(from: string, to: string): { value?: string; error?: string } {
  if (!from && !to) return {};
  if (!from || !to) return { error: "errors:selectTwoDates" };
  if (!isValidDate(from) || !isValidDate(to)) return { error: "errors:invalidDate" };
  return { value: from <= to ? `${from}..${to}` : `${to}..${from}` };
}

function cleanFilter(kind: FilterKind, raw: string, options?: readonly string[]): string | undefined {
  const value = raw.trim().slice(0, MAX_TEXT);
  if (!value) return undefined;
  if (kind === "select") {
    const picked = value.split(",").filter((v) => options?.includes(v));
    return picked.length ? picked.join(",") : undefined;
  }
  if (kind === "reference") {
    const ids = value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
    return ids.length ? ids.join(",") : undefined;
  }
  return value;
}

/** The quick filters a table offers: All, then Recent and Not Mapped where they mean something. */
export function quickFiltersOf(spec: TableSpec): QuickFilter[] {
  return QUICK_FILTERS.filter((q) => (q === "recent" ? spec.recent : q === "notMapped" ? spec.notMapped : true));
}

/** A date range as the GET form sends it (two inputs) or as the URL keeps it (`from..to`). */
function rangeParts(params: URLSearchParams, field: string): { from: string; to: string; fromForm: boolean } {
  const fromInput = params.get(rangeInputName(field, "from"));
  const toInput = params.get(rangeInputName(field, "to"));
  if (fromInput !== null || toInput !== null) return { from: fromInput?.trim() ?? "", to: toInput?.trim() ?? "", fromForm: true };
  const joined = params.get(`${FILTER_PREFIX}${field}`)?.trim() ?? "";
  const at = joined.indexOf("..");
  return at < 0 ? { from: joined, to: "", fromForm: false } : { from: joined.slice(0, at), to: joined.slice(at + 2), fromForm: false };
}

/** Reads the table state from a URL's query, checked against the table's spec. */
export function parseTableUrl(params: URLSearchParams, spec: TableSpec): ParsedTableUrl {
  let needsCanonical = false;
  for (const [key, value] of params) {
    if ((STATE_KEYS.has(key) || key.startsWith(FILTER_PREFIX)) && value.trim() === "") needsCanonical = true;
  }
  const pageNumber = Math.floor(Number(params.get("page")));
  const page = Number.isFinite(pageNumber) && pageNumber >= 1 ? Math.min(pageNumber, 1_000_000) : 1;
  const asked = Number(params.get("size"));
  const size = (PAGE_SIZES as readonly number[]).includes(asked) ? (asked as PageSize) : spec.defaultSize;
  const quickRaw = params.get("quick") as QuickFilter | null;
  const quick: QuickFilter = quickRaw && quickFiltersOf(spec).includes(quickRaw) ? quickRaw : "all";

  const filters: Record<string, string> = {};
  const partialRanges: ParsedTableUrl["partialRanges"] = {};
  const errors: Record<string, string> = {};
  for (const [field, { kind, options }] of Object.entries(spec.filters)) {
    if (kind === "dateRange") {
      const { from, to, fromForm } = rangeParts(params, field);
      if (fromForm) needsCanonical = true;
      const range = cleanRange(from, to);
      if (range.value) filters[field] = range.value;
      if (range.error) {
        errors[field] = range.error;
        partialRanges[field] = { from, to };
      }
      continue;
    }
    const raw = params.get(`${FILTER_PREFIX}${field}`);
    const value = raw === null ? undefined : cleanFilter(kind, raw, options);
    if (value !== undefined) filters[field] = value;
  }
  const state: TableState = {
    q: (params.get("q") ?? "").trim().slice(0, MAX_TEXT),
    sort: cleanSort(params.get("sort"), spec),
    page,
    size,
    filters,
    quick,
    after: "",
    before: "",
  };
  // One cursor at most, and only on a page after the first (the first needs none).
  const after = params.get("after") ?? "";
  const before = params.get("before") ?? "";
  if (page > 1 && CURSOR.test(after)) state.after = after;
  else if (page > 1 && CURSOR.test(before)) state.before = before;
  // A half-entered range cannot be written back canonically; the page shows it with the message.
  return { state, partialRanges, errors, needsCanonical: needsCanonical && Object.keys(errors).length === 0 };
}

/** The URL query of a state, with defaults left out and keys in a fixed order. */
export function tableSearchParams(state: TableState, spec: TableSpec): URLSearchParams {
  const out = new URLSearchParams();
  if (state.q) out.set("q", state.q);
  if (state.quick !== "all") out.set("quick", state.quick);
  for (const field of Object.keys(spec.filters)) {
    const value = state.filters[field];
    if (value) out.set(`${FILTER_PREFIX}${field}`, value);
  }
  if (state.sort && state.sort !== spec.defaultSort) out.set("sort", state.sort);
  if (state.page > 1) out.set("page", String(state.page));
  if (state.size !== spec.defaultSize) out.set("size", String(state.size));
  if (state.after) out.set("after", state.after);
  else if (state.before) out.set("before", state.before);
  return out;
}

/** The link to a state of the table at `pathname`, keeping query keys that are not table state. */
export function tableHref(pathname: string, state: TableState, spec: TableSpec, current?: URLSearchParams): string {
  const out = tableSearchParams(state, spec);
  for (const [key, value] of current ?? []) {
    if (!STATE_KEYS.has(key) && !key.startsWith(FILTER_PREFIX)) out.append(key, value);
  }
  const search = out.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * A changed state; anything but the page itself sends the reader back to page 1. A cursor is of
 * the page it came with: kept only when the patch gives one.
 */
export function changeState(state: TableState, patch: Partial<TableState>): TableState {
  const next = { ...state, after: "", before: "", ...patch };
  if (patch.page === undefined) next.page = 1;
  return next;
}

/**
 * The state of the page before or after this one, with the API's cursor for it when the answer
 * gave one (the first page needs none).
 */
export function neighbourState(state: TableState, cursors: { previous?: string; next?: string }, step: -1 | 1): TableState {
  const page = state.page + step;
  const cursor = page <= 1 ? {} : step === 1 ? { after: cursors.next ?? "" } : { before: cursors.previous ?? "" };
  return changeState(state, { page, ...cursor });
}

/** The direction a field is sorted in, if it leads or takes part in the sort. */
export function sortDirection(sort: string, field: string): "asc" | "desc" | null {
  const part = sort.split(",").find((s) => s.replace(/^-/, "") === field);
  if (!part) return null;
  return part.startsWith("-") ? "desc" : "asc";
}

/** A column header's click: ascending first, then descending, then ascending again. */
export function toggledSort(sort: string, field: string): string {
  const lead = sort.split(",")[0] ?? "";
  return lead === field ? `-${field}` : field;
}

function apiFilterParams(state: TableState, out: URLSearchParams): URLSearchParams {
  if (state.q) out.set("freeText", state.q);
  out.set("sort", state.sort);
  for (const [field, value] of Object.entries(state.filters)) out.set(`${FILTER_PREFIX}${field}`, value);
  if (state.quick !== "all") out.set("quick", state.quick);
  return out;
}

/** The query of GET {apiPath}/search for one page of the table. */
export function apiSearchQuery(state: TableState): URLSearchParams {
  const out = new URLSearchParams({ max: String(state.size), offset: String((state.page - 1) * state.size) });
  if (state.after) out.set("after", state.after);
  else if (state.before) out.set("before", state.before);
  return apiFilterParams(state, out);
}

/** The query of GET {apiPath}/export: every row that matches, whatever the page. */
export function apiExportQuery(state: TableState): URLSearchParams {
  return apiFilterParams(state, new URLSearchParams());
}
