import type { Kysely } from "kysely";

// Frozen: indexes the notice pipeline's own look-ups need, so that a notice costs the same
// whatever the number of notices before it (measurements in docs/benchmarks.md, "Highest steady
// rate, separate processes"). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // An item's documents (is every fetch done, the mail's attachments, the filing statuses) were
  // found by reading every document of every firm.
  await db.schema.createIndex("document_processed_from_idx").on("document").column("processed_from_id").execute();
  // The next due job is taken in (run_at, id) order: with the id in the index the claim reads
  // one entry instead of sorting every due job.
  await db.schema.createIndex("job_due_idx").on("job").columns(["run_at", "id"]).execute();
  await db.schema.dropIndex("job_run_idx").execute();
}
