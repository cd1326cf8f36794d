import { z } from "zod";

/** One column filter of the table URL: `filter.status=open,closed` or `filter.created_at=2026-01-01..2026-01-31`. */
export interface Filter {
  field: string;
  values: string[];
  range?: { from: string; to: string };
}

export interface SearchQuery {
  max: number;
  offset: number;
  freeText?: string;
  sort: { field: string; descending: boolean }[];
  filters: Filter[];
  quick?: "recent" | "notMapped";
  /** An opaque cursor from a previous search's answer: the page after (or before) a row (keyset.ts). */
  after?: string;
  before?: string;
}

export class QueryError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const MAX_PAGE = 100;
const base = z.object({
  max: z.coerce.number().int().min(1).max(MAX_PAGE).default(25),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  freeText: z.string().trim().max(200).optional(),
  sort: z.string().max(200).optional(),
  quick: z.enum(["all", "recent", "notMapped"]).optional(),
  after: z.string().max(4_000).optional(),
  before: z.string().max(4_000).optional(),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the search parameters of GET /{resource}/search; field names are checked by the caller. */
export function parseSearchQuery(params: Record<string, string | string[] | undefined>, defaultSort: string, maxOverride?: number): SearchQuery {
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = base.parse({ ...flat, max: maxOverride ?? flat.max });
  const sort = (parsed.sort || defaultSort)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => ({ field: s.replace(/^-/, ""), descending: s.startsWith("-") }));
  const filters: Filter[] = [];
  for (const [key, raw] of Object.entries(flat)) {
    if (!key.startsWith("filter.") || raw === undefined || raw === "") continue;
    const field = key.slice("filter.".length);
    if (raw.includes("..")) {
      const [from, to] = raw.split("..");
      if (!from || !to || !DATE.test(from) || !DATE.test(to)) throw new QueryError("errors:selectTwoDates", field);
      filters.push({ field, values: [], range: from <= to ? { from, to } : { from: to, to: from } });
    } else {
      filters.push({
        field,
        values: raw
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean)
          .slice(0, 50),
      });
    }
  }
  return {
    max: parsed.max,
    offset: parsed.offset,
    freeText: parsed.freeText || undefined,
    sort,
    filters,
    quick: parsed.quick === "all" ? undefined : parsed.quick,
    ...(parsed.after ? { after: parsed.after } : parsed.before ? { before: parsed.before } : {}),
  };
}
