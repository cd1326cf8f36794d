import { type Kysely, sql } from "kysely";

// Frozen: a table per vendor DMS credential type of spec §3 (iManage cloud and on-premises,
// NetDocuments cloud and client, SharePoint cloud and on-premises, Box client-credential grant)
// and Dropbox; secrets are stored sealed (never plain). One directory over every credential
// table names an id's type; OAuth tokens are kept sealed beside it; a stored document keeps its
// DMS link. Never imports application code.

type Dialect = "sqlite" | "postgres";

type Column = [name: string, kind: "text" | "integer" | "flag" | "map"];

const IMANAGE: Column[] = [
  ["username", "text"],
  ["password", "text"],
  ["client_id", "text"],
  ["client_secret", "text"],
  ["database", "text"],
  ["customer_id", "integer"],
  ["folder_id", "text"],
  ["author_field", "text"],
  ["document_class", "text"],
  ["document_sub_class", "text"],
  ["default_security", "text"],
  ["matter_workspace_search", "flag"],
  ["matter_workspace_search_path", "text"],
  ["custom_properties", "map"],
];
const SHAREPOINT: Column[] = [
  ["client_id", "text"],
  ["client_secret", "text"],
  ["author_field", "text"],
  ["signature", "text"],
  ["tenant_id", "text"],
  ["base_url", "text"],
];

const CREDENTIAL_TABLES: Record<string, Column[]> = {
  imanage_on_prem_credential: [...IMANAGE, ["base_url", "text"], ["use_agent", "flag"]],
  imanage_cloud_credential: [...IMANAGE, ["cloud_environment", "text"]],
  net_documents_cloud_credential: [
    ["basic_auth", "text"],
    ["refresh_token", "text"],
    ["recent_access_token", "text"],
    ["cloud_environment", "text"],
    ["default_cabinet", "text"],
    ["author_field", "text"],
  ],
  net_documents_client_credential: [
    ["client_id", "text"],
    ["client_secret", "text"],
    ["repository", "text"],
    ["default_cabinet", "text"],
    ["author_field", "text"],
    ["region", "text"],
    ["create_folders", "flag"],
  ],
  share_point_cloud_credential: SHAREPOINT,
  share_point_on_prem_credential: [...SHAREPOINT, ["use_agent", "flag"], ["fed_auth_endpoint", "text"]],
  box_client_credential_grant_credential: [
    ["client_key", "text"],
    ["client_secret", "text"],
    ["box_subject_type", "text"],
    ["box_subject_id", "text"],
  ],
  dropbox_credential: [
    ["app_key", "text"],
    ["app_secret", "text"],
    ["refresh_token", "text"],
    ["root_path", "text"],
  ],
};

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
      else if (kind === "map") create = create.addColumn(name, "text", (c) => c.notNull().defaultTo("{}"));
      else create = create.addColumn(name, kind);
    }
    await create.execute();
    await db.schema.createIndex(`${table}_name_idx`).on(table).columns(["firm_id", "name"]).execute();
  }

  // Which table holds a credential id: storage policies name any credential by id alone.
  const tables = ["generic_credential", ...Object.keys(CREDENTIAL_TABLES)];
  const parts = tables.map((table) => sql`select id, firm_id, name, ${sql.lit(table)} as kind, created_at from ${sql.table(table)}`);
  await sql`create view dms_credential_directory as ${sql.join(parts, sql` union all `)}`.execute(db);

  await db.schema
    .createTable("dms_credential_token")
    .addColumn("credential_id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("sealed", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("dms_record").addColumn("link", "text").execute();
}
