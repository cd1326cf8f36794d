import { type Kysely, sql } from "kysely";

// Frozen: the firm's master data (spec §3) and the search index. Never imports application code.

type Dialect = "sqlite" | "postgres";

const SEARCHABLE = [
  "location",
  "department",
  "practice_group",
  "timekeeper",
  "client",
  "matter",
  "jurisdiction",
  "judge",
  "court_case",
  "ignored_case",
  "abbreviation",
];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const millis = "bigint";

  /** id, firm, times and the two external keys every firm-owned entity has. */
  const entity = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
      .addColumn("created_at", millis, (c) => c.notNull())
      .addColumn("updated_at", millis, (c) => c.notNull())
      .addColumn("reference_id", "text")
      .addColumn("unique_key", "text");

  const keys = async (table: string) => {
    await db.schema.createIndex(`${table}_reference_uq`).on(table).columns(["firm_id", "reference_id"]).unique().execute();
    await db.schema.createIndex(`${table}_key_uq`).on(table).columns(["firm_id", "unique_key"]).unique().execute();
    await db.schema.createIndex(`${table}_created_idx`).on(table).columns(["firm_id", "created_at"]).execute();
  };
  const index = (table: string, columns: string[]) =>
    db.schema
      .createIndex(`${table}_${columns.join("_")}_idx`)
      .on(table)
      .columns(["firm_id", ...columns])
      .execute();

  await db.schema
    .createTable("ecfx_jurisdiction")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("state", "text")
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("system", "text", (c) => c.notNull())
    .execute();

  await entity("location")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("storage_policy_id", "text")
    .execute();
  await keys("location");
  await index("location", ["name"]);

  await entity("department")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("long_description", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await keys("department");
  await index("department", ["name"]);

  await entity("practice_group")
    .addColumn("name", "text", (c) => c.notNull())
    .execute();
  await keys("practice_group");
  await index("practice_group", ["name"]);

  await entity("timekeeper")
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("sort_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("is_attorney", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("billable", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("location_id", "text", (c) => c.references("location.id"))
    .addColumn("department_id", "text", (c) => c.references("department.id"))
    .addColumn("practice_group_id", "text", (c) => c.references("practice_group.id"))
    .addColumn("timekeeper_group_id", "text")
    .addColumn("user_defined_fields", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("storage_policy_id", "text")
    .addColumn("additional_receipt_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await keys("timekeeper");
  await index("timekeeper", ["full_name"]);
  await index("timekeeper", ["email"]);

  await entity("client")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("open_date", "text")
    .addColumn("originating_timekeeper_id", "text", (c) => c.references("timekeeper.id"))
    .addColumn("storage_policy_id", "text")
    .execute();
  await keys("client");
  await index("client", ["name"]);

  await entity("matter")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("client_id", "text", (c) => c.notNull().references("client.id"))
    .addColumn("location_id", "text", (c) => c.references("location.id"))
    .addColumn("practice_group_id", "text", (c) => c.references("practice_group.id"))
    .addColumn("area_of_law_id", "text")
    .addColumn("originating_timekeeper_id", "text", (c) => c.references("timekeeper.id"))
    .addColumn("billing_timekeeper_id", "text", (c) => c.references("timekeeper.id"))
    .addColumn("supervising_timekeeper_id", "text", (c) => c.references("timekeeper.id"))
    .execute();
  await keys("matter");
  await index("matter", ["name"]);
  await index("matter", ["client_id"]);

  await entity("jurisdiction")
    .addColumn("name", "text", (c) => c.notNull())
    .execute();
  await keys("jurisdiction");
  await db.schema.createIndex("jurisdiction_name_uq").on("jurisdiction").columns(["firm_id", "name"]).unique().execute();

  await db.schema
    .createTable("jurisdiction_ecfx")
    .addColumn("jurisdiction_id", "text", (c) => c.notNull().references("jurisdiction.id").onDelete("cascade"))
    .addColumn("ecfx_jurisdiction_id", "text", (c) => c.notNull().references("ecfx_jurisdiction.id"))
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("jurisdiction_ecfx_pk", ["jurisdiction_id", "ecfx_jurisdiction_id"])
    .execute();
  await db.schema.createIndex("jurisdiction_ecfx_court_idx").on("jurisdiction_ecfx").columns(["firm_id", "ecfx_jurisdiction_id"]).execute();

  await entity("judge")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("jurisdiction_id", "text", (c) => c.notNull().references("jurisdiction.id"))
    .execute();
  await keys("judge");
  await index("judge", ["name"]);

  await entity("court_case")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("case_number", "text", (c) => c.notNull())
    .addColumn("case_number_normalized", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("caption", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("matter_id", "text", (c) => c.references("matter.id"))
    .addColumn("jurisdiction_id", "text", (c) => c.references("jurisdiction.id"))
    .addColumn("judge_id", "text", (c) => c.references("judge.id"))
    .addColumn("open_date", "text")
    .addColumn("close_date", "text")
    .addColumn("filed_date", "text")
    .addColumn("storage_policy_id", "text")
    .execute();
  await keys("court_case");
  await index("court_case", ["case_number"]);
  await index("court_case", ["case_number_normalized"]);
  await index("court_case", ["name"]);
  await index("court_case", ["matter_id"]);
  await index("court_case", ["jurisdiction_id"]);

  await db.schema
    .createTable("case_timekeeper")
    .addColumn("case_id", "text", (c) => c.notNull().references("court_case.id").onDelete("cascade"))
    .addColumn("timekeeper_id", "text", (c) => c.notNull().references("timekeeper.id"))
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("case_timekeeper_pk", ["case_id", "timekeeper_id"])
    .execute();
  await db.schema.createIndex("case_timekeeper_tk_idx").on("case_timekeeper").columns(["timekeeper_id"]).execute();

  await entity("ignored_case")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_normalized", "text", (c) => c.notNull())
    .addColumn("ecfx_jurisdiction_id", "text", (c) => c.notNull().references("ecfx_jurisdiction.id"))
    .execute();
  await keys("ignored_case");
  await db.schema.createIndex("ignored_case_uq").on("ignored_case").columns(["firm_id", "ecfx_jurisdiction_id", "name_normalized"]).unique().execute();

  await entity("abbreviation")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await keys("abbreviation");
  await db.schema.createIndex("abbreviation_name_uq").on("abbreviation").columns(["firm_id", "name"]).unique().execute();

  await db.schema
    .createTable("user_preference")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addPrimaryKeyConstraint("user_preference_pk", ["user_id", "key"])
    .execute();

  // Free-text search: SQLite keeps an FTS5 table per entity keyed by the row's rowid, PostgreSQL
  // a tsvector column with a GIN index. Documents carry the firm as a token, so a firm's query is
  // an intersection the index answers without scanning the table.
  for (const table of SEARCHABLE) {
    if (dialect === "sqlite") {
      await sql`create virtual table ${sql.raw(`${table}_fts`)} using fts5(body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
    } else {
      await sql`alter table ${sql.raw(table)} add column search_vector tsvector`.execute(db);
      await sql`create index ${sql.raw(`${table}_search_idx`)} on ${sql.raw(table)} using gin (search_vector)`.execute(db);
    }
  }
}
