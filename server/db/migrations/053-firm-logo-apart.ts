import { type Kysely, sql } from "kysely";

// Frozen: the firm's logo moves out of the firm row into a table of its own. On SQLite a column
// that follows a large value in a row is reached by walking that value's overflow pages, and the
// logo (up to 1 MB) sat before most of the firm's settings: every read of a setting walked it,
// several times per notice, and a process whose page cache another process's commit emptied
// read those pages from the file again. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("firm_logo")
    .addColumn("firm_id", "integer", (c) => c.primaryKey().references("firm.id").onDelete("cascade"))
    .addColumn("png", dialect === "postgres" ? "bytea" : "blob", (c) => c.notNull())
    .execute();
  await sql`insert into firm_logo (firm_id, png) select id, logo from firm where logo is not null`.execute(db);
  await db.schema.alterTable("firm").dropColumn("logo").execute();
}
