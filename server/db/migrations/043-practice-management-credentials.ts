import { type Kysely, sql } from "kysely";

// Frozen: a table per practice-management credential type of spec §3 (Clio, Litify, FileVine,
// ProLaw), built as migration 040 built the DMS ones, secrets stored sealed; the directory of
// every credential is drawn again to include them. Never imports application code.

type Dialect = "sqlite" | "postgres";

type Column = [name: string, kind: "text" | "integer" | "flag"];

const CREDENTIAL_TABLES: Record<string, Column[]> = {
  clio_credential: [
    ["region", "text"],
    ["client_id", "text"],
    ["client_secret", "text"],
    ["create_calendar_entries", "flag"],
    ["calendar_id", "integer"],
  ],
  litify_credential: [
    ["username", "text"],
    ["password", "text"],
    ["client_id", "text"],
    ["client_secret", "text"],
    ["instance_url", "text"],
    ["matter_column_name", "text"],
  ],
  file_vine_credential: [
    ["api_key", "text"],
    ["api_secret", "text"],
    ["hashtags", "text"],
    ["subdomain", "text"],
    ["billingItem", "text"],
    ["personalAccessToken", "text"],
    ["clientId", "text"],
    ["clientSecret", "text"],
  ],
  pro_law_credential: [
    ["api_key", "text"],
    ["base_url", "text"],
    ["use_agent", "flag"],
    ["add_parent_id", "flag"],
  ],
};

/** Every credential table as migration 040 listed them, then these. */
const DIRECTORY = [
  "generic_credential",
  "imanage_on_prem_credential",
  "imanage_cloud_credential",
  "net_documents_cloud_credential",
  "net_documents_client_credential",
  "share_point_cloud_credential",
  "share_point_on_prem_credential",
  "box_client_credential_grant_credential",
  "dropbox_credential",
  ...Object.keys(CREDENTIAL_TABLES),
];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const [table, columns] of Object.entries(CREDENTIAL_TABLES)) {
    let create = db.schema
      .createTable(table)
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("reference_id", "text")
      .addColumn("unique_key", "text")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("folder_creation_sync_delay", "integer", (c) => c.notNull().defaultTo(0));
    for (const [name, kind] of columns) {
      if (kind === "flag") create = create.addColumn(name, "integer", (c) => c.notNull().defaultTo(0));
      else create = create.addColumn(name, kind);
    }
    await create.execute();
    await db.schema.createIndex(`${table}_name_idx`).on(table).columns(["firm_id", "name"]).execute();
  }

  await sql`drop view dms_credential_directory`.execute(db);
  const parts = DIRECTORY.map((table) => sql`select id, firm_id, name, ${sql.lit(table)} as kind, created_at from ${sql.table(table)}`);
  await sql`create view dms_credential_directory as ${sql.join(parts, sql` union all `)}`.execute(db);
}
