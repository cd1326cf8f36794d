import type { Generated, Kysely, Selectable } from "kysely";
import type { ImportJobReport, ImportJobStatus, ImportLineOutcome, ImportLineReport } from "../../app/common/import/types";
import type { ServerContext } from "../context";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";

// Import jobs in the database: the process running an import writes its progress after every
// batch, so any API process can report it. A running job that stops writing for STALE_MS was
// cut short (the process ended) and is reported as failed.

interface ImportJobTable {
  id: string;
  firm_id: number;
  user_id: string;
  resource: string;
  status: ImportJobStatus;
  sync: number;
  total_rows: number;
  processed_rows: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  rejected_count: Generated<number>;
  deleted_count: Generated<number>;
  message: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

interface ImportJobRowTable {
  job_id: string;
  line: number;
  outcome: ImportLineOutcome;
  record: string;
  reasons: string;
}

interface ImportTables {
  import_job: ImportJobTable;
  import_job_row: ImportJobRowTable;
}

export const STALE_MS = 5 * 60 * 1000;
const KEEP_MS = 30 * 24 * 3600 * 1000;

// The import tables are this module's own; the rest of the schema does not need them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const jobsDb = (db: Kysely<any>) => db as unknown as Kysely<ImportTables>;

export async function createJob(
  ctx: ServerContext,
  input: { firmId: number; userId: string; resource: string; total: number; sync: boolean },
): Promise<string> {
  const db = jobsDb(ctx.database.db);
  const now = ctx.clock.now();
  const id = newId();
  // Reports are kept for a month; older ones go when the firm starts a new import.
  await db
    .deleteFrom("import_job")
    .where("firm_id", "=", input.firmId)
    .where("created_at", "<", now - KEEP_MS)
    .execute();
  await db
    .insertInto("import_job")
    .values({
      id,
      firm_id: input.firmId,
      user_id: input.userId,
      resource: input.resource,
      status: "running",
      sync: input.sync ? 1 : 0,
      total_rows: input.total,
      message: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .execute();
  return id;
}

/** The outcome of one batch, written in the batch's own transaction. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordBatch(trx: Kysely<any>, jobId: string, lines: ImportLineReport[], now: number): Promise<void> {
  const db = jobsDb(trx);
  if (lines.length) {
    await db
      .insertInto("import_job_row")
      .values(lines.map((l) => ({ job_id: jobId, line: l.line, outcome: l.outcome, record: l.record, reasons: JSON.stringify(l.reasons) })))
      .execute();
  }
  const count = (outcome: ImportLineOutcome) => lines.filter((l) => l.outcome === outcome).length;
  await db
    .updateTable("import_job")
    .set((eb) => ({
      processed_rows: eb("processed_rows", "+", lines.length),
      created_count: eb("created_count", "+", count("created")),
      updated_count: eb("updated_count", "+", count("updated")),
      rejected_count: eb("rejected_count", "+", count("rejected")),
      updated_at: now,
    }))
    .where("id", "=", jobId)
    .execute();
}

export async function finishJob(
  ctx: ServerContext,
  jobId: string,
  end: { status: Exclude<ImportJobStatus, "running">; deleted?: number; message?: string | null },
): Promise<void> {
  const now = ctx.clock.now();
  await jobsDb(ctx.database.db)
    .updateTable("import_job")
    .set({ status: end.status, deleted_count: end.deleted ?? 0, message: end.message ?? null, updated_at: now, finished_at: now })
    .where("id", "=", jobId)
    .execute();
}

function present(row: Selectable<ImportJobTable>, now: number): ImportJobReport {
  const stale = row.status === "running" && now - Number(row.updated_at) > STALE_MS;
  return {
    id: row.id,
    resource: row.resource,
    status: stale ? "failed" : row.status,
    sync: Boolean(row.sync),
    total: row.total_rows,
    processed: row.processed_rows,
    created: row.created_count,
    updated: row.updated_count,
    rejected: row.rejected_count,
    deleted: row.deleted_count,
    message: stale ? message("transfer:import.interrupted") : row.message,
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** A job of the firm, or undefined: another firm's job is never found. */
export async function findJob(ctx: ServerContext, firmId: number, id: string): Promise<ImportJobReport | undefined> {
  const row = await jobsDb(ctx.database.db).selectFrom("import_job").selectAll().where("id", "=", id).where("firm_id", "=", firmId).executeTakeFirst();
  return row ? present(row, ctx.clock.now()) : undefined;
}

/** A page of the job's lines, rejected ones first, each group in file order. */
export async function jobLines(ctx: ServerContext, jobId: string, page: { max: number; offset: number }): Promise<ImportLineReport[]> {
  const rows = await jobsDb(ctx.database.db)
    .selectFrom("import_job_row")
    .select(["line", "outcome", "record", "reasons"])
    .where("job_id", "=", jobId)
    .orderBy((eb) => eb.case().when("outcome", "=", "rejected").then(0).else(1).end())
    .orderBy("line")
    .limit(page.max)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({ line: r.line, outcome: r.outcome, record: r.record, reasons: JSON.parse(r.reasons) as ImportLineReport["reasons"] }));
}
