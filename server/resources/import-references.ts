import type { Kysely } from "kysely";
import type { Caller } from "../auth/caller";
import { message } from "../lib/messages";
import type { ParsedLine } from "./import-line";
import { SERVER_RESOURCES } from "./registry";
import type { ServerResource } from "./types";

// A practice-management export names related records by its own keys, not by ECFX ids. A
// reference cell may hold the referenced record's id, unique_key or reference_id; each is
// looked up within the caller's firm (the shared court list by id only) and replaced by the id.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

interface Target {
  table: string;
  firmOwned: boolean;
  /** Columns a cell may match, weakest first: a later match wins. */
  keys: string[];
}

const CHUNK = 500;

function targetOf(res: ServerResource, field: string): Target | undefined {
  const link = res.links?.[field];
  const table = res.references?.[field] ?? link?.target.table;
  if (!table) return undefined;
  const known = SERVER_RESOURCES.find((r) => r.table === table);
  const external = ["reference_id", "unique_key"].filter((c) => known?.columns[c]);
  return { table, firmOwned: link ? link.target.firmOwned : (known?.firmOwned ?? true), keys: [...external, "id"] };
}

async function lookUp(db: AnyDb, caller: Caller, target: Target, values: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < values.length; i += CHUNK) {
    const chunk = values.slice(i, i + CHUNK);
    let query = db
      .selectFrom(target.table)
      .select(target.keys)
      .where((eb) => eb.or(target.keys.map((k) => eb(k, "in", chunk))));
    if (target.firmOwned) query = query.where("firm_id", "=", caller.firmId);
    const rows = (await query.execute()) as Record<string, string | null>[];
    for (const key of target.keys) for (const row of rows) if (row[key] !== null) found.set(row[key]!, row.id!);
  }
  return found;
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : []);

/** Replaces the reference cells of valid lines by ids; a value no record has rejects its line. */
export async function resolveReferences(db: AnyDb, caller: Caller, res: ServerResource, lines: ParsedLine[]): Promise<void> {
  const valid = lines.filter((l) => Object.keys(l.errors).length === 0);
  for (const field of [...Object.keys(res.references ?? {}), ...Object.keys(res.links ?? {})]) {
    const target = targetOf(res, field)!;
    const wanted = [...new Set(valid.flatMap((l) => asList(l.values[field])))];
    if (wanted.length === 0) continue;
    const ids = await lookUp(db, caller, target, wanted);
    for (const line of valid) {
      const value = line.values[field];
      if (value === undefined || value === null) continue;
      const missing = asList(value).filter((v) => !ids.has(v));
      if (missing.length) {
        line.errors[field] = missing.map((v) => message("transfer:import.unknownReference", { value: v }));
        continue;
      }
      line.values[field] = Array.isArray(value) ? value.map((v) => ids.get(String(v))!) : ids.get(String(value));
    }
  }
}
