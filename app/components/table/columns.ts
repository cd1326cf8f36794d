import { referenceSource } from "../fields/reference-sources";
import { type FieldKind, type ResourceDef, fieldLabelKey } from "../../common/resources/types";
import type { FilterKind, TableSpec } from "../../utils/table-url";

/** One column of a resource table, as both renderers draw it. */
export interface TableColumn {
  field: string;
  labelKey: string;
  kind: FieldKind;
  sortable: boolean;
  filter?: FilterKind;
  /** Values of a select field; labels are `resources:<key>.options.<field>.<value>`. */
  options?: readonly string[];
  /** Key of the entity a reference column points to, when it has a search (see reference-sources). */
  reference?: string;
  /** The row's title: a link to the row, never hidden. */
  isTitle: boolean;
  width?: number;
  /** Cents, shown as an amount. */
  money?: boolean;
}

/** The registry's columns that this role may read; a filter on a reference needs a known entity. */
export function tableColumns(def: ResourceDef, readable: (field: string) => boolean): TableColumn[] {
  return def.columns
    .filter((c) => readable(c.field))
    .map((c) => {
      const field = def.fields.find((f) => f.name === c.field);
      const reference = field?.reference && referenceSource(field.reference) ? field.reference : undefined;
      return {
        field: c.field,
        labelKey: fieldLabelKey(def.key, c.field),
        kind: field?.kind ?? "text",
        sortable: Boolean(c.sortable),
        filter: c.filter,
        options: field?.options,
        reference,
        isTitle: c.field === def.titleField,
        width: c.width,
        ...(field?.money ? { money: true } : {}),
      };
    });
}

/** What the URL may ask of this table; a default order on an unreadable field gives way. */
export function tableSpecOf(def: ResourceDef, columns: TableColumn[], readable: (field: string) => boolean): TableSpec {
  const sortable = columns.filter((c) => c.sortable).map((c) => c.field);
  const defaultFields = def.defaultSort.split(",").map((s) => s.replace(/^-/, ""));
  const defaultSort = defaultFields.every(readable) || sortable.length === 0 ? def.defaultSort : sortable[0]!;
  const filters: TableSpec["filters"] = Object.fromEntries(columns.filter((c) => c.filter).map((c) => [c.field, { kind: c.filter!, options: c.options }]));
  return {
    defaultSort,
    defaultSize: 25,
    sortable,
    filters,
    recent: def.fields.some((f) => f.name === "created_at"),
    notMapped: Boolean(def.quickFilters.notMapped),
  };
}
