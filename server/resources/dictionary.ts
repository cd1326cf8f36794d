import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { Kysely } from "kysely";
import { DICTIONARY_COLUMNS, type DictionaryRow, catalogueEntries, dictionaryValueProblems } from "../../app/common/dictionary";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { readOverrides } from "../db/firm-words";
import type { DB } from "../db/schema";
import { HttpError, invalid } from "../lib/errors";
import { defaultCatalogue, message } from "../lib/messages";
import { type AuditAction, auditChange } from "./audit";
import { neutraliseFormula } from "./export";

// A firm's dictionary: every entry of the catalogue with the firm's own text where it set one.
// Each change bumps the firm's dictionary version in the same transaction, so every process
// reads the new words on its next request (server/db/firm-words.ts), and writes its AUDIT entry.

type Entry = { namespace: string; key: string; text: string };

let entries: Map<string, Entry> | undefined;
const addressOf = (namespace: string, key: string) => `${namespace}:${key}`;

/** The catalogue's entries by "namespace:key". */
function catalogueIndex(): Map<string, Entry> {
  entries ??= new Map(catalogueEntries(defaultCatalogue()).map((e) => [addressOf(e.namespace, e.key), e]));
  return entries;
}

/** The catalogue entry, or a 404 naming it: an unknown key is never stored. */
export function knownEntry(namespace: string, key: string): Entry {
  const entry = catalogueIndex().get(addressOf(namespace, key));
  if (!entry) throw new HttpError(404, message("errors:dictionaryUnknownEntry", { entry: addressOf(namespace, key) }));
  return entry;
}

/** The value's problems as sentences, in the caller's words. */
export function valueProblems(entry: Entry, value: string): string[] {
  return dictionaryValueProblems(entry.text, value).map((p) => message(p.key, p.values));
}

export interface DictionaryQuery {
  freeText?: string;
  namespace?: string;
  overridden?: boolean;
  offset: number;
  max: number;
}

/** The firm's dictionary rows matching the query (key, default or current text), in catalogue order. */
export async function searchDictionary(ctx: ServerContext, firmId: number, query: DictionaryQuery): Promise<{ rows: DictionaryRow[]; total: number }> {
  const stored = await ctx.database.db
    .selectFrom("dictionary_entry")
    .select(["namespace", "key", "value", "updated_at", "updated_by"])
    .where("firm_id", "=", firmId)
    .execute();
  const byAddress = new Map(stored.map((r) => [addressOf(r.namespace, r.key), r]));
  const needle = query.freeText?.trim().toLowerCase() ?? "";
  const rows: DictionaryRow[] = [];
  for (const [address, entry] of catalogueIndex()) {
    if (query.namespace && entry.namespace !== query.namespace) continue;
    const own = byAddress.get(address);
    if (query.overridden !== undefined && Boolean(own) !== query.overridden) continue;
    const text = own?.value ?? entry.text;
    if (needle && ![address, entry.text, text].some((s) => s.toLowerCase().includes(needle))) continue;
    rows.push({
      namespace: entry.namespace,
      key: entry.key,
      defaultText: entry.text,
      text,
      overridden: Boolean(own),
      updatedAt: own ? Number(own.updated_at) : null,
      updatedBy: own?.updated_by ?? null,
    });
  }
  return { rows: rows.slice(query.offset, query.offset + query.max), total: rows.length };
}

/** The namespaces of the catalogue, for the page's filter. */
export const dictionaryNamespaces = (): string[] => Object.keys(defaultCatalogue()).sort();

const DICTIONARY_AUDIT = { key: "dictionary", fields: [], titleField: "entry" };

type Change = { entry: Entry; value: string | null };

/** Applies changes (a value, or null to go back to the default) in one transaction with their audit entries. */
async function applyChanges(ctx: ServerContext, caller: Caller, changes: Change[]): Promise<number> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const before = await readOverrides(trx, caller.firmId);
    let applied = 0;
    for (const { entry, value } of changes) {
      const old = before[entry.namespace]?.[entry.key];
      if ((old ?? null) === value) continue;
      await writeEntry(trx, caller, entry, value, now);
      const action: AuditAction = value === null ? "deleted" : old === undefined ? "created" : "updated";
      const address = addressOf(entry.namespace, entry.key);
      await auditChange(
        trx,
        caller,
        {
          def: DICTIONARY_AUDIT,
          entity: message("audit:dictionaryEntry"),
          action,
          id: address,
          before: { entry: address, value: old ?? entry.text },
          after: value === null ? null : { entry: address, value },
        },
        now,
      );
      applied++;
    }
    if (applied > 0) {
      await trx
        .updateTable("firm")
        .set((eb) => ({ dictionary_version: eb("dictionary_version", "+", 1) }))
        .where("id", "=", caller.firmId)
        .execute();
    }
    return applied;
  });
}

async function writeEntry(trx: Kysely<DB>, caller: Caller, entry: Entry, value: string | null, now: number): Promise<void> {
  const where = trx.deleteFrom("dictionary_entry").where("firm_id", "=", caller.firmId).where("namespace", "=", entry.namespace).where("key", "=", entry.key);
  await where.execute();
  if (value === null) return;
  await trx
    .insertInto("dictionary_entry")
    .values({ firm_id: caller.firmId, namespace: entry.namespace, key: entry.key, value, updated_at: now, updated_by: caller.email })
    .execute();
}

/** Sets the firm's text of one entry; a value with other placeholders than the default's is refused. */
export async function setOverride(ctx: ServerContext, caller: Caller, namespace: string, key: string, value: unknown): Promise<void> {
  const entry = knownEntry(namespace, key);
  const text = typeof value === "string" ? value : "";
  const problems = valueProblems(entry, text);
  if (problems.length) throw invalid({ value: problems }, problems[0]);
  await applyChanges(ctx, caller, [{ entry, value: text }]);
}

/** The entry goes back to the catalogue's text. */
export async function resetOverride(ctx: ServerContext, caller: Caller, namespace: string, key: string): Promise<void> {
  await applyChanges(ctx, caller, [{ entry: knownEntry(namespace, key), value: null }]);
}

/** Every entry as CSV (decision 012): a byte order mark, the header, then namespace, key, default and current text. */
export async function exportDictionary(ctx: ServerContext, firmId: number): Promise<string> {
  const { rows } = await searchDictionary(ctx, firmId, { offset: 0, max: Number.MAX_SAFE_INTEGER });
  const header = [DICTIONARY_COLUMNS.namespace, DICTIONARY_COLUMNS.key, DICTIONARY_COLUMNS.defaultText, DICTIONARY_COLUMNS.text];
  const lines = rows.map((r) => [r.namespace, r.key, neutraliseFormula(r.defaultText), neutraliseFormula(r.text)]);
  return `\uFEFF${stringify([header, ...lines], { record_delimiter: "\r\n" })}`;
}

/** The importer takes back what neutraliseFormula added. */
const unneutralised = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** Which column holds what: the export's names or the field names, in any case. */
function columnsOf(header: string[]): { namespace: number; key: number; text: number } | null {
  const find = (field: keyof typeof DICTIONARY_COLUMNS) =>
    header.findIndex((h) => [field.toLowerCase(), DICTIONARY_COLUMNS[field].toLowerCase()].includes(h.trim().toLowerCase()));
  const at = { namespace: find("namespace"), key: find("key"), text: find("text") };
  return at.namespace < 0 || at.key < 0 || at.text < 0 ? null : at;
}

/**
 * Imports a file of the export's form, all or nothing: each line is checked (a known entry, a
 * text with the default's placeholders, each entry once) and a single bad line stores nothing.
 * A text equal to the default resets the entry; entries the file does not name are left alone.
 */
export async function importDictionary(ctx: ServerContext, caller: Caller, file: string): Promise<{ changed: number; lines: number }> {
  const body = file.replace(/^\uFEFF/, "");
  if (body.trim() === "") throw invalid({ file: [message("errors:dictionaryImportEmpty")] }, message("errors:dictionaryImportEmpty"));
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With each record the line it ends on, which is what the report names.
    records = parse(body, { relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const text = message("errors:dictionaryImportUnreadable", { error: error instanceof Error ? error.message : String(error) });
    throw invalid({ file: [text] }, text);
  }
  const at = columnsOf(records[0]?.record ?? []);
  if (!at) {
    const text = message("errors:dictionaryImportColumns", {
      columns: [DICTIONARY_COLUMNS.namespace, DICTIONARY_COLUMNS.key, DICTIONARY_COLUMNS.text].join(", "),
    });
    throw invalid({ file: [text] }, text);
  }
  const problems: string[] = [];
  const changes: Change[] = [];
  const seen = new Map<string, number>();
  records.slice(1).forEach(({ record: cells, info }) => {
    const line = info.lines;
    const namespace = (cells[at.namespace] ?? "").trim();
    const key = (cells[at.key] ?? "").trim();
    const value = unneutralised(cells[at.text] ?? "");
    const address = addressOf(namespace, key);
    const fail = (reason: string) => problems.push(message("errors:dictionaryImportLine", { line, reason }));
    const entry = catalogueIndex().get(address);
    if (!entry) return fail(message("errors:dictionaryUnknownEntry", { entry: address }));
    const first = seen.get(address);
    if (first !== undefined) return fail(message("errors:dictionaryImportRepeated", { entry: address, first }));
    seen.set(address, line);
    const reasons = valueProblems(entry, value);
    if (reasons.length) return reasons.forEach(fail);
    changes.push({ entry, value: value === entry.text ? null : value });
  });
  if (problems.length) throw invalid({ file: problems }, problems[0]);
  return { changed: await applyChanges(ctx, caller, changes), lines: records.length - 1 };
}
