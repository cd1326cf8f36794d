import type { Kysely } from "kysely";
import { type SecretBox, sealedKeyId } from "../auth/secret-box";
import type { DB } from "../db/schema";
import { SERVER_RESOURCES } from "../resources/registry";

// Where the product keeps sealed secrets, and the two things an operator does with them: count
// them per key (`ecfx secrets status`) and seal them again under the current key
// (`ecfx secrets rotate`). Decision 052.

/** A table with sealed columns, its rows named by `key`. */
export interface SealedColumns {
  table: string;
  key: string;
  columns: string[];
}

/** A sealed value the configured keys do not open: reported and left as it is, never dropped. */
export interface UnreadableSecret {
  table: string;
  id: string;
  column: string;
  reason: string;
}

export interface ResealReport {
  resealed: number;
  current: number;
  unreadable: UnreadableSecret[];
}

export interface SealedCounts {
  /** Sealed values per key id, including ids of keys no longer configured. */
  byKey: Map<string, number>;
  /** Values of secret columns that are not sealed at all. */
  plain: number;
}

// The tables are named by the registry, never by a caller; the builder is typed per table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

const BATCH = 200;

/** Every entity field declared secret (found from the registry, so a new credential type is included) and the OAuth tokens. */
export function sealedColumns(): SealedColumns[] {
  const byTable = new Map<string, Set<string>>();
  for (const res of SERVER_RESOURCES) {
    if (!res.writable || res.view) continue;
    const secrets = res.def.fields.filter((f) => f.secret).map((f) => f.name);
    if (secrets.length === 0) continue;
    const columns = byTable.get(res.table) ?? new Set<string>();
    for (const name of secrets) columns.add(name);
    byTable.set(res.table, columns);
  }
  return [
    ...[...byTable].map(([table, columns]) => ({ table, key: "id", columns: [...columns] })),
    { table: "dms_credential_token", key: "credential_id", columns: ["sealed"] },
  ];
}

/** The rows of a table in key order, a batch at a time; `visit` runs inside one transaction per batch. */
async function eachBatch(db: Kysely<DB>, place: SealedColumns, visit: (trx: AnyDb, rows: Row[]) => Promise<void>): Promise<void> {
  let after: unknown;
  for (;;) {
    const done = await (db as unknown as AnyDb).transaction().execute(async (trx) => {
      let query = trx
        .selectFrom(place.table)
        .select([place.key, ...place.columns])
        .orderBy(place.key)
        .limit(BATCH);
      if (after !== undefined) query = query.where(place.key, ">", after);
      const rows = (await query.execute()) as Row[];
      if (rows.length > 0) await visit(trx, rows);
      if (rows.length > 0) after = rows[rows.length - 1]![place.key];
      return rows.length < BATCH;
    });
    if (done) return;
  }
}

const sealedValues = (place: SealedColumns, row: Row) =>
  place.columns.flatMap((column) => {
    const value = row[column];
    return typeof value === "string" && value !== "" ? [{ column, value }] : [];
  });

/**
 * Seals every secret again under the box's current key, and seals any kept in plain text (a
 * field declared secret after values were stored). With `plainOnly`, only those: what every start
 * does. A row is only rewritten while it still holds the value read, so a secret a user saves
 * meanwhile is kept as they saved it.
 */
export async function resealAll(db: Kysely<DB>, box: SecretBox, places: SealedColumns[] = sealedColumns(), plainOnly = false): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0, unreadable: [] };
  for (const place of places) {
    await eachBatch(db, place, async (trx, rows) => {
      for (const row of rows) {
        const id = String(row[place.key]);
        for (const { column, value } of sealedValues(place, row)) {
          const sealed = box.isSealed(value);
          if (sealed && (plainOnly || !box.needsResealing(value))) {
            report.current++;
            continue;
          }
          let plain: string;
          try {
            plain = sealed ? box.open(value) : value;
          } catch (error) {
            report.unreadable.push({ table: place.table, id, column, reason: (error as Error).message });
            continue;
          }
          const written = await trx
            .updateTable(place.table)
            .set({ [column]: box.seal(plain) })
            .where(place.key, "=", row[place.key])
            .where(column, "=", value)
            .executeTakeFirst();
          if (Number(written.numUpdatedRows) > 0) report.resealed++;
        }
      }
    });
  }
  return report;
}

/** How many sealed values each key id seals, and how many secret values are not sealed. */
export async function countSealed(db: Kysely<DB>, places: SealedColumns[] = sealedColumns()): Promise<SealedCounts> {
  const counts: SealedCounts = { byKey: new Map(), plain: 0 };
  for (const place of places) {
    await eachBatch(db, place, async (_trx, rows) => {
      for (const row of rows) {
        for (const { value } of sealedValues(place, row)) {
          const id = sealedKeyId(value);
          if (id === undefined) counts.plain++;
          else counts.byKey.set(id, (counts.byKey.get(id) ?? 0) + 1);
        }
      }
    });
  }
  return counts;
}
