import { type Kysely, sql } from "kysely";
import type { DialectName } from "./database";
import type { DB } from "./schema";

/**
 * Serialises the firm's writes that check a rule over several rows (the order of its preferences,
 * its last administrator) until the transaction ends: PostgreSQL locks the firm's row, so the next
 * such transaction waits and then reads what this one committed; SQLite writes one transaction at
 * a time already.
 */
export async function holdFirm(trx: Kysely<DB>, dialect: DialectName, firmId: number): Promise<void> {
  if (dialect === "postgres") await sql`select id from firm where id = ${firmId} for update`.execute(trx);
}
