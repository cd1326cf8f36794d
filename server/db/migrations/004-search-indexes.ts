import type { Kysely } from "kysely";

// Frozen: indexes a firm with 100,000 cases needs (measurements in docs/benchmarks.md).
// Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // A matter's case count (its case_count column, the Not Mapped filter, the check before a
  // delete) and a client's matter count look rows up by the parent alone, without the firm:
  // the (firm_id, matter_id) and (firm_id, client_id) indexes cannot answer that, and each
  // listed matter cost a scan of every case.
  await db.schema.createIndex("court_case_matter_only_idx").on("court_case").column("matter_id").execute();
  await db.schema.createIndex("matter_client_only_idx").on("matter").column("client_id").execute();

  if (dialect === "postgres") {
    // A page of cases is found by its keys alone (the search reads rows only for the page) and
    // ties are broken by id: with the id in the sort indexes, a deep page is an index-only scan
    // instead of a read of every skipped row. SQLite's indexes carry the rowid already.
    for (const column of ["case_number", "created_at", "name"]) {
      await db.schema.createIndex(`court_case_${column}_id_idx`).on("court_case").columns(["firm_id", column, "id"]).execute();
    }
    for (const superseded of ["court_case_case_number_idx", "court_case_created_idx", "court_case_name_idx"]) {
      await db.schema.dropIndex(superseded).execute();
    }
  }
}
