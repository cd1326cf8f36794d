import type { ParsedTableUrl, TableSpec, TableState } from "../../utils/table-url";
import type { ReferenceTitles } from "./format";
import type { ArrangedColumn, TableLayout } from "./layout";

export type TableRow = Record<string, unknown>;

export interface ReferenceOption {
  value: string;
  label: string;
}

/** Everything a resource table needs, as the list loader hands it to the page. */
export interface TableData {
  resourceKey: string;
  columns: ArrangedColumn[];
  rows: TableRow[];
  total: number;
  state: TableState;
  spec: TableSpec;
  errors: ParsedTableUrl["errors"];
  partialRanges: ParsedTableUrl["partialRanges"];
  titles: ReferenceTitles;
  /** Choices of a reference filter; a column without them filters by a typed id. */
  referenceOptions: Record<string, ReferenceOption[]>;
  /** The search failed: the API's status and text. */
  loadError: { status: number; text: string } | null;
  canCreate: boolean;
  /** FULL on the entity: the page may offer import, upload and other changes. */
  fullAccess: boolean;
  /** The role may change the firm's web preferences (table striping). */
  canStripe: boolean;
  striped: boolean;
  layout: TableLayout;
}
