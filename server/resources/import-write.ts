import { type Kysely, sql } from "kysely";
import type { ImportLineReport } from "../../app/common/import/types";
import type { Caller } from "../auth/caller";
import { HttpError, isInvalidValue, isUniqueViolation } from "../lib/errors";
import type { ServerContext } from "../context";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import type { ParsedLine } from "./import-line";
import { reindex, toStored, writeLinks } from "./repository";
import type { ServerResource } from "./types";

// Writes one parsed line inside its batch's transaction: it updates the firm's record that the
// line names (by id or by any unique key, such as unique_key or reference_id) or adds a new one.
// Each line runs in a savepoint, so a line the database refuses is rejected alone.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

export interface WrittenLine {
  report: ImportLineReport;
  /** The record written, for the sync's "present in the file". */
  id?: string;
  /** The row inserted, for the resource's after-insert hook once the batch is committed. */
  inserted?: Row;
  /** The resource's work for once the batch is committed (an audit entry). */
  committed?: (id: string) => Promise<void>;
}

interface Key {
  label: string;
  values: [string, unknown][];
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== "";

function keysOf(res: ServerResource, line: ParsedLine, stored: Row): Key[] {
  const keys: Key[] = line.id ? [{ label: "id", values: [["id", line.id]] }] : [];
  for (const unique of res.uniques ?? []) {
    if (unique.fields.every((f) => filled(stored[f]))) keys.push({ label: unique.fields.join(" + "), values: unique.fields.map((f) => [f, stored[f]]) });
  }
  return keys;
}

/** The firm's record this line names, or why the line cannot name one. */
async function existing(
  db: AnyDb,
  caller: Caller,
  res: ServerResource,
  line: ParsedLine,
  stored: Row,
): Promise<{ id?: string; errors?: Record<string, string[]> }> {
  const keys = keysOf(res, line, stored);
  if (keys.length === 0) return {};
  const columns = [...new Set(["id", ...keys.flatMap((k) => k.values.map(([f]) => f))])];
  const rows = (await db
    .selectFrom(res.table)
    .select(columns)
    .where("firm_id", "=", caller.firmId)
    .where((eb) => eb.or(keys.map((k) => eb.and(k.values.map(([f, v]) => eb(f, "=", v))))))
    .execute()) as Row[];
  if (line.id && !rows.some((r) => r.id === line.id)) return { errors: { id: [message("transfer:import.unknownId")] } };
  if (new Set(rows.map((r) => r.id)).size > 1) {
    const by = keys.filter((k) => rows.some((r) => k.values.every(([f, v]) => r[f] === v))).map((k) => k.label);
    return { errors: { _row: [message("transfer:import.ambiguous", { fields: by.join(", ") })] } };
  }
  return { id: rows[0]?.id as string | undefined };
}

const pick = (row: Row, fields: string[]): Row => Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, row[f]]));

const rejected = (line: ParsedLine, errors = line.errors): WrittenLine => ({
  report: { line: line.line, outcome: "rejected", record: line.record, reasons: errors },
});

async function write(db: AnyDb, ctx: ServerContext, caller: Caller, res: ServerResource, line: ParsedLine): Promise<WrittenLine> {
  const now = ctx.clock.now();
  const match = await existing(db, caller, res, line, toStored(res, line.values, ctx.secretBox));
  if (match.errors) return rejected(line, match.errors);
  const report = (outcome: ImportLineReport["outcome"]): ImportLineReport => ({ line: line.line, outcome, record: line.record, reasons: {} });
  if (match.id) {
    // Only the cells the line fills: an empty cell leaves the stored value as it is.
    const changes = pick(line.values, line.given);
    const update = { action: "update", id: match.id, values: changes } as const;
    const committed = await res.hooks?.authorizeWrite?.(ctx, caller, update, db);
    await res.hooks?.insideWrite?.(db, ctx, caller, update);
    await db
      .updateTable(res.table)
      .set({ ...toStored(res, changes, ctx.secretBox), updated_at: now })
      .where("id", "=", match.id)
      .where("firm_id", "=", caller.firmId)
      .execute();
    await writeLinks(db, res, caller, match.id, changes);
    await reindex(db, ctx, res, caller, match.id);
    return { report: report("updated"), id: match.id, committed: committed ?? undefined };
  }
  const create = { action: "create", values: line.values } as const;
  const committed = await res.hooks?.authorizeWrite?.(ctx, caller, create, db);
  await res.hooks?.insideWrite?.(db, ctx, caller, create);
  let row: Row = { ...toStored(res, line.values, ctx.secretBox), id: newId(), firm_id: caller.firmId, created_at: now, updated_at: now };
  if (res.hooks?.beforeInsert) row = await res.hooks.beforeInsert(ctx, caller, row);
  await db.insertInto(res.table).values(row).execute();
  await writeLinks(db, res, caller, String(row.id), line.values);
  await reindex(db, ctx, res, caller, String(row.id));
  return { report: report("created"), id: String(row.id), inserted: row, committed: committed ?? undefined };
}

/** Why the database refused a line, when the refusal is the line's fault. */
function refusal(error: unknown): string | undefined {
  if (error instanceof HttpError) return error.message;
  if (isUniqueViolation(error)) return message("errors:conflict");
  const code = String((error as { code?: unknown })?.code ?? "");
  if (code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY") return message("errors:unknownReference");
  if (isInvalidValue(error) || code.startsWith("23") || code.startsWith("SQLITE_CONSTRAINT")) return message("errors:invalidRequest");
  return undefined;
}

export async function importLine(db: AnyDb, ctx: ServerContext, caller: Caller, res: ServerResource, line: ParsedLine): Promise<WrittenLine> {
  if (Object.keys(line.errors).length) return rejected(line);
  await sql`savepoint import_line`.execute(db);
  try {
    const written = await write(db, ctx, caller, res, line);
    await sql`release savepoint import_line`.execute(db);
    return written;
  } catch (error) {
    await sql`rollback to savepoint import_line`.execute(db);
    await sql`release savepoint import_line`.execute(db);
    const reason = refusal(error);
    if (!reason) throw error;
    return rejected(line, { _row: [reason] });
  }
}
