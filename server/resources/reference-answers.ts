import { findResource } from "../../app/common/resources";
import { securityRoles } from "../../app/common/resources/security-roles";
import { type Caller, fieldLevel } from "../auth/caller";
import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { type Row, referenceRows } from "./repository";
import { serverResourceByPath } from "./registry";
import { searchRoleChoices } from "./role-choices";
import type { ServerResource } from "./types";

// What a list page shows beside its rows: the titles of the rows its reference columns name and
// the choices of its reference filters. Asked with the search (`references=1`), they come from
// the same read path as any search of those entities — the caller's firm, role and walls — in
// the same request, instead of one request per referenced entity.

/** A reference filter offers up to this many choices; beyond it, a typed id (as the console's picker). */
export const REFERENCE_CHOICES = 100;
/** Ids looked up per statement: a page's list fields name a hundred or so, far below either database's limit of bound values. */
const IDS_PER_SEARCH = 500;

export interface ReferenceAnswers {
  /** By field: the title of each id the page's rows name. */
  titles: Record<string, Record<string, string>>;
  /** By field of a reference filter: every choice, when there are at most REFERENCE_CHOICES. */
  options: Record<string, { value: string; label: string }[]>;
}

/** Pickers served by a search of their own rather than the generic one, by the path the entity declares. */
const PICKER_SEARCHES: Record<string, typeof searchRoleChoices> = {
  [securityRoles.pickerPath!]: searchRoleChoices,
};

/** Rows naming `ids`, or the first `max` by title when there are none: id and title only. */
type Lookup = (q: { max: number; ids?: string[] }) => Promise<Row[]>;

/** How rows of the entity `key` are looked up for the caller, and what names a row; null when nothing searches it. */
function lookupOf(ctx: ServerContext, caller: Caller, key: string): { lookup: Lookup; titleField: string } | null {
  const def = findResource(key);
  if (!def) return null;
  const picker = def.pickerPath ? PICKER_SEARCHES[def.pickerPath] : undefined;
  if (picker) return { titleField: def.titleField, lookup: async (q) => (await picker(ctx, caller, { max: q.max, offset: 0, ids: q.ids ?? [] })).rows };
  const res: ServerResource | undefined = serverResourceByPath((def.pickerPath ?? def.apiPath).replace(/^\/api\/v1\//, ""));
  if (!res) return null;
  return { titleField: def.titleField, lookup: (q) => referenceRows(ctx, caller, res, { titleField: def.titleField, ...q }) };
}

/** A referenced entity the caller's role may not read is left out, as its own search would refuse it. */
async function unlessRefused(work: () => Promise<Row[]>): Promise<Row[]> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && (error.status === 403 || error.status === 400)) return [];
    throw error;
  }
}

const titleOf = (row: Row, titleField: string) => String(row[titleField] ?? row.id);

export async function referenceAnswers(ctx: ServerContext, caller: Caller, res: ServerResource, rows: Row[]): Promise<ReferenceAnswers> {
  const readable = res.def.fields.filter((f) => f.reference && fieldLevel(caller, res.def.resource, f.name) !== "DENY");
  const filtered = new Set(res.def.columns.filter((c) => c.filter === "reference").map((c) => c.field));
  const answers: ReferenceAnswers = { titles: {}, options: {} };
  await Promise.all(
    readable.map(async (field) => {
      const source = lookupOf(ctx, caller, field.reference!);
      if (!source) return;
      const known = new Map<string, string>();
      if (filtered.has(field.name)) {
        // One row more than a list holds tells a firm with too many of them for a list: no choices.
        const choices = await unlessRefused(() => source.lookup({ max: REFERENCE_CHOICES + 1 }));
        for (const row of choices) known.set(String(row.id), titleOf(row, source.titleField));
        if (choices.length > 0 && choices.length <= REFERENCE_CHOICES) answers.options[field.name] = [...known].map(([value, label]) => ({ value, label }));
      }
      // Only the titles of ids the page's rows name travel back.
      const named = [
        ...new Set(
          rows
            .flatMap((row) => [row[field.name]].flat())
            .filter((id) => id !== null && id !== undefined)
            .map(String),
        ),
      ];
      const unknown = named.filter((id) => !known.has(id));
      for (let i = 0; i < unknown.length; i += IDS_PER_SEARCH) {
        const ids = unknown.slice(i, i + IDS_PER_SEARCH);
        const found = await unlessRefused(() => source.lookup({ max: ids.length, ids }));
        for (const row of found) known.set(String(row.id), titleOf(row, source.titleField));
      }
      answers.titles[field.name] = Object.fromEntries(named.filter((id) => known.has(id)).map((id) => [id, known.get(id)!]));
    }),
  );
  return answers;
}
