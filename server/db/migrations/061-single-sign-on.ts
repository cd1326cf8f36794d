import type { Kysely } from "kysely";

// Frozen: single sign-on (decision 099). A firm's identity provider (SAML 2.0 now, OpenID Connect
// in 062) with the service provider key pair ECFX signs and decrypts with for that firm; the
// requests ECFX sent and waits an answer to, and the assertions already used, both in the
// database so that every process refuses the same replay; and the single sign-on session a
// sign-in started, which the tokens it issued name (refresh_token.sso_session_id) and which the
// identity provider's logout ends. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("firm_sso")
    .addColumn("firm_id", "integer", (c) => c.primaryKey())
    .addColumn("idp_entity_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("idp_sso_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("idp_slo_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("idp_certificates", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("idp_metadata_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sp_private_key", "text", (c) => c.notNull())
    .addColumn("sp_certificate", "text", (c) => c.notNull())
    .addColumn("email_attribute", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("break_glass_user_id", "text")
    .addColumn("group_attribute", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("group_roles", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sso_request")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sso_replay")
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("assertion_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("sso_replay_pk", ["firm_id", "assertion_id"])
    .execute();

  await db.schema
    .createTable("sso_session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("issuer", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("subject_format", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("session_index", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("ended_at", "bigint")
    .execute();
  await db.schema.createIndex("sso_session_subject").on("sso_session").columns(["firm_id", "subject"]).execute();

  await db.schema.alterTable("refresh_token").addColumn("sso_session_id", "text").execute();
}
