import type { Kysely } from "kysely";

// Frozen: how an iManage credential signs in, "password" (the user's name and password) or
// "authorization_code" (a person approves ECFX through the tenant's single sign-on, where no
// password exists). Credentials from before keep NULL, read as "password". Never imports
// application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const table of ["imanage_cloud_credential", "imanage_on_prem_credential"]) {
    await db.schema.alterTable(table).addColumn("sign_in", "text").execute();
  }
}
