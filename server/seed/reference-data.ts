import type { Kysely } from "kysely";
import { FEDERAL_COURTS, STATE_COURTS } from "../jurisdictions/federal-courts";
import type { Database } from "../db/database";

/** ECFX's court list, brought up to date at every start (new courts added, names corrected). */
export async function seedReferenceData(database: Database): Promise<void> {
  // The court table is written only here; an untyped view keeps the upsert short.
  const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  await db.transaction().execute(async (trx) => {
    for (const court of [...FEDERAL_COURTS, ...STATE_COURTS]) {
      const values = { id: court.id, name: court.name, level: court.level, state: court.state, country: court.country, system: court.system };
      await trx
        .insertInto("ecfx_jurisdiction")
        .values(values)
        .onConflict((oc) =>
          oc.column("id").doUpdateSet({ name: values.name, level: values.level, state: values.state, country: values.country, system: values.system }),
        )
        .execute();
    }
  });
}
