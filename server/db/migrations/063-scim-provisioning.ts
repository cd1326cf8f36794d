import type { Kysely } from "kysely";

// Frozen: SCIM 2.0 provisioning (decision 101). A firm's provisioning tokens (only their hashes),
// what an identity provider says of a user beyond the user record (its id for the user, the
// name parts, whether the user is active), and its groups with their members and the security
// role the firm maps each group to (none until the firm chooses one). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("scim_token")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint")
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("scim_token_firm").on("scim_token").columns(["firm_id", "created_at"]).execute();

  await db.schema
    .createTable("scim_user")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("given_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("family_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex("scim_user_firm").on("scim_user").columns(["firm_id", "active"]).execute();

  await db.schema
    .createTable("scim_group")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("security_role_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("scim_group_name", ["firm_id", "display_name"])
    .execute();

  await db.schema
    .createTable("scim_group_member")
    .addColumn("group_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("scim_group_member_pk", ["group_id", "user_id"])
    .execute();
  await db.schema.createIndex("scim_group_member_user").on("scim_group_member").columns(["user_id"]).execute();
}
