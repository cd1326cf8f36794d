import type { Kysely } from "kysely";

// Frozen: OpenID Connect as a firm's second single sign-on method (decision 100): the issuer it
// discovers, and the client ECFX is registered as there (the secret sealed by the secret box).
// Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm_sso")
    .addColumn("oidc_issuer", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("firm_sso")
    .addColumn("oidc_client_id", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("firm_sso").addColumn("oidc_client_secret", "text").execute();
}
