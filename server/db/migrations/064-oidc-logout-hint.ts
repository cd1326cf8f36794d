import type { Kysely } from "kysely";

// Frozen: the ID token an OpenID Connect sign-in received, kept with its single sign-on session so
// that signing out can name that session to the issuer (RP-initiated logout's id_token_hint,
// decision 102). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("sso_session").addColumn("id_token", "text").execute();
}
