import type { FieldDef, FieldKind, ResourceDef } from "../../app/common/resources/types";
import type { ColumnSpec, LinkSpec, ServerExtension, ServerResource } from "./types";

// Puts an entity's declaration and its server extension together into what the generic API
// serves. The field list is read from the declaration only; the extension adds where things live.

/** What each kind of field is in SQL, and what the API lets a query do with it unless the field says otherwise. */
const KIND_COLUMNS: Record<Exclude<FieldKind, "references">, Omit<ColumnSpec, "expr">> = {
  text: { type: "text", sortable: true, filterable: true, match: "contains" },
  email: { type: "text", sortable: true, filterable: true, match: "contains" },
  textarea: { type: "text", sortable: false, filterable: true, match: "contains" },
  select: { type: "text", sortable: true, filterable: true, match: "exact" },
  reference: { type: "text", sortable: false, filterable: true, match: "exact" },
  date: { type: "date", sortable: true, filterable: true },
  boolean: { type: "boolean", sortable: false, filterable: true },
  number: { type: "number", sortable: true, filterable: false },
  emails: { type: "json", sortable: false, filterable: false },
  properties: { type: "json", sortable: false, filterable: false },
  choices: { type: "json", sortable: false, filterable: false },
};

/** Columns every record has: its id and, on stamped tables, when it was made and last changed (epoch ms). */
const RECORD_COLUMNS: Record<string, ColumnSpec> = {
  id: { type: "text", filterable: true, match: "exact" },
  created_at: { type: "millis", sortable: true, filterable: true },
  updated_at: { type: "millis", sortable: true },
};

export const RECORD_COLUMN_NAMES = Object.keys(RECORD_COLUMNS);

function columnOf(field: FieldDef, expr: string | undefined): ColumnSpec {
  const base = KIND_COLUMNS[field.kind as Exclude<FieldKind, "references">];
  return {
    ...base,
    ...(expr ? { expr } : {}),
    sortable: field.sortable ?? base.sortable,
    filterable: field.filterable ?? base.filterable,
    ...(field.match ? { match: field.match } : {}),
  };
}

/** Tables of the entities a reference may name that have no generic API of their own. */
const OTHER_TABLES: Record<string, { table: string; firmOwned: boolean }> = {
  "security-roles": { table: "security_role", firmOwned: true },
};

export function buildResources(entries: [ResourceDef, ServerExtension][]): ServerResource[] {
  const byKey = new Map(entries.map(([def, ext]) => [def.key, { table: ext.table, firmOwned: ext.firmOwned ?? true }]));
  const target = (field: FieldDef) => {
    const found = byKey.get(field.reference ?? "") ?? OTHER_TABLES[field.reference ?? ""];
    if (!found) throw new Error(`${field.name} refers to ${field.reference}, which has no table`);
    return found;
  };
  return entries.map(([def, ext]) => {
    const columns: Record<string, ColumnSpec> = { id: RECORD_COLUMNS.id! };
    if (ext.stamped === "created") columns.created_at = RECORD_COLUMNS.created_at!;
    else if (ext.stamped !== false) Object.assign(columns, { created_at: RECORD_COLUMNS.created_at, updated_at: RECORD_COLUMNS.updated_at });
    const links: Record<string, LinkSpec> = {};
    const references: Record<string, string> = {};
    for (const field of def.fields) {
      if (field.kind === "references") {
        const storage = ext.links?.[field.name];
        if (!storage) throw new Error(`${def.key}.${field.name}: a list field needs its storage in the server extension`);
        links[field.name] = { ...storage, target: target(field) };
        continue;
      }
      if (field.kind === "reference") references[field.name] = target(field).table;
      const record = columns[field.name];
      columns[field.name] = record
        ? { ...record, sortable: field.sortable ?? record.sortable, filterable: field.filterable ?? record.filterable }
        : columnOf(field, ext.expressions?.[field.name]);
    }
    for (const name of Object.keys({ ...ext.expressions, ...ext.links })) {
      if (!def.fields.some((f) => f.name === name)) throw new Error(`${def.key}.${name} is in the server extension but not declared`);
    }
    return {
      def,
      table: ext.table,
      firmOwned: ext.firmOwned ?? true,
      writable: ext.writable ?? true,
      view: ext.view ?? false,
      searchable: "indexed" in ext.search,
      columns,
      links,
      references,
      searchFields: "indexed" in ext.search ? ext.search.indexed : [],
      likeFields: "like" in ext.search ? ext.search.like : undefined,
      uniques: ext.uniques,
      dependents: ext.dependents,
      derive: ext.derive,
      defaultFilter: ext.defaultFilter,
      notMappedSql: ext.notMappedSql,
      hooks: ext.hooks,
    };
  });
}
