import type { Kysely } from "kysely";

// Frozen: whether a NetDocuments credential files into the matter workspace of the filing's
// client and matter instead of the cabinet's folders. Credentials from before keep 0 (the
// cabinet's folders, as they filed). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const table of ["net_documents_cloud_credential", "net_documents_client_credential"]) {
    await db.schema
      .alterTable(table)
      .addColumn("matter_workspaces", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
}
