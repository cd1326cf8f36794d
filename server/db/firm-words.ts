import type { TFunction } from "i18next";
import type { Kysely } from "kysely";
import { boundedCache } from "../../app/common/bounded-cache";
import type { FirmOverrides } from "../../app/common/dictionary";
import { firmTranslator, serverT, speakWith, withWords } from "../lib/messages";
import type { Database } from "./database";
import type { DB } from "./schema";

// A firm's words are read once per dictionary version and kept in this process: a request or a
// job reads the version with the firm data it loads anyway and reads the entries only when the
// version moved (another process's change included). See docs/decisions/047.

const kept = boundedCache<{ version: number; overrides: Promise<FirmOverrides>; t: Promise<TFunction> }>({ max: 500 });

/** The firm's overrides by namespace and key, read fresh. */
export async function readOverrides(db: Kysely<DB>, firmId: number): Promise<FirmOverrides> {
  const rows = await db.selectFrom("dictionary_entry").select(["namespace", "key", "value"]).where("firm_id", "=", firmId).execute();
  const out: FirmOverrides = {};
  for (const row of rows) (out[row.namespace] ??= {})[row.key] = row.value;
  return out;
}

function keptWords(database: Database, firmId: number, version: number) {
  const hit = kept.get(String(firmId));
  if (hit && hit.version === version) return hit;
  const overrides = readOverrides(database.db, firmId);
  const entry = { version, overrides, t: overrides.then(firmTranslator) };
  // A failed read is not kept: the next request reads again.
  overrides.catch(() => kept.get(String(firmId)) === entry && kept.forget(String(firmId)));
  kept.set(String(firmId), entry);
  return entry;
}

async function versionOf(database: Database, firmId: number): Promise<number> {
  const row = await database.db.selectFrom("firm").select("dictionary_version").where("id", "=", firmId).executeTakeFirst();
  return Number(row?.dictionary_version ?? 0);
}

/** The catalogue in the firm's words at `version` (read from the firm row when not given). */
export async function firmWords(database: Database, firmId: number, version?: number): Promise<TFunction> {
  const at = version ?? (await versionOf(database, firmId));
  // Version 0: the firm never changed a word.
  return at === 0 ? serverT() : keptWords(database, firmId, at).t;
}

/** The firm's overrides and their version, for the console. */
export async function firmOverrides(database: Database, firmId: number): Promise<{ version: number; overrides: FirmOverrides }> {
  const version = await versionOf(database, firmId);
  return { version, overrides: version === 0 ? {} : await keptWords(database, firmId, version).overrides };
}

/** The rest of this API request speaks the caller's firm's words. */
export async function speakFirmWords(database: Database, firmId: number, version: number): Promise<void> {
  speakWith(await firmWords(database, firmId, version));
}

/** Runs `work` (a job, a mail) in the firm's words; at `version` when the caller read it already. */
export async function withFirmWords<T>(database: Database, firmId: number, work: () => Promise<T>, version?: number): Promise<T> {
  return withWords(await firmWords(database, firmId, version), work);
}
