import type { Kysely } from "kysely";

// Frozen: until when the firm's error recipients have been told of its events (epoch ms; 0: never
// told, the reports start from the next run). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm")
    .addColumn("error_reported_until", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}
