import type { Kysely } from "kysely";
import type { Caller } from "../auth/caller";
import { HttpError } from "../lib/errors";
import type { ServerContext } from "../context";
import type { ImportFile } from "./import-file";
import { remove } from "./repository";
import type { ServerResource } from "./types";

// A synchronising cases import: the file is the firm's whole list, so cases it does not name
// are deleted, within the firm's max_case_deletions_on_import.

export const SYNC_KEYS = ["id", "unique_key", "reference_id"] as const;

/** Ids of the firm's records that no line of the file names and this import did not write. */
export async function absentFromFile(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  file: ImportFile,
  written: ReadonlySet<string>,
): Promise<string[]> {
  const named = Object.fromEntries(SYNC_KEYS.map((key) => [key, file.keys[key] ?? new Set<string>()]));
  // The table is named by the registry at run time, hence the untyped query.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = ctx.database.db as unknown as Kysely<any>;
  const rows = (await db
    .selectFrom(res.table)
    .select([...SYNC_KEYS])
    .where("firm_id", "=", caller.firmId)
    .execute()) as Record<(typeof SYNC_KEYS)[number], string | null>[];
  return rows.filter((row) => !written.has(row.id!) && SYNC_KEYS.every((key) => row[key] === null || !named[key]!.has(row[key]))).map((row) => row.id!);
}

/** Deletes through the generic repository, so its checks (dependent rows) still hold. */
export async function deleteRecords(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  ids: string[],
): Promise<{ deleted: number; refused: number; reason?: string }> {
  let deleted = 0;
  let refused = 0;
  let reason: string | undefined;
  for (const id of ids) {
    try {
      await remove(ctx, caller, res, id);
      deleted += 1;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      refused += 1;
      reason ??= error.message;
    }
  }
  return { deleted, refused, reason };
}
