// The tables of the dashboard's kept counts (migrations 017, 038, 077). Each count table holds a
// firm's counts by level and bucket. On PostgreSQL a change is first written once, at the start of
// its hour (of its day for the counts per matter and timekeeper), into the count table's pending
// table; the compaction (compact-counts.ts) moves those rows into every level's buckets, and the
// dashboard reads both (kept-counts.ts). SQLite has no pending tables: its triggers update the
// count rows in place.

export interface CountTable {
  /** The counts by firm, level and bucket, and `keys`. */
  counts: string;
  /** PostgreSQL: the changes not moved into `counts` yet, by firm, `starts_at` and `keys`. */
  pending: string;
  /** What the table counts by beside the firm and the bucket. */
  keys: string[];
  /** What it counts. */
  values: string[];
  /** The smallest bucket kept, in milliseconds: a pending row counts in the levels from this size up. */
  smallest: number;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

export const COUNT_TABLES: Record<"notice" | "quarter" | "key" | "document", CountTable> = {
  notice: { counts: "dashboard_notice_count", pending: "dashboard_notice_pending", keys: ["status"], values: ["n"], smallest: HOUR },
  quarter: { counts: "dashboard_quarter_count", pending: "dashboard_quarter_pending", keys: ["quarter"], values: ["n"], smallest: HOUR },
  key: { counts: "dashboard_key_count", pending: "dashboard_key_pending", keys: ["kind", "key_id"], values: ["n"], smallest: DAY },
  document: {
    counts: "dashboard_document_count",
    pending: "dashboard_document_pending",
    keys: [],
    values: ["received", "fetched", "stored", "failed", "sealed"],
    smallest: HOUR,
  },
};
