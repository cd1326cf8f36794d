import type { ReactNode } from "react";
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
  /** Registry keys of the list pages shown as tabs beside this one (empty for most). */
  siblings: string[];
}

/**
 * Rows a page lets the user tick and act on together (optional; the inbox uses it). The plain
 * renderer draws real checkboxes that post with the page's form; the interactive one keeps the
 * ticked ids in the page's state.
 */
export interface TableSelection {
  /** Ticked row ids (interactive renderer). */
  selected: string[];
  onChange(ids: string[]): void;
  /** Accessible names of the "all on this page" and the row checkboxes. */
  allLabel: string;
  rowLabel(row: TableRow): string;
  /** What the plain renderer's checkboxes post: `rowName=<id>` per row, `allName=allValue` for the page. */
  rowName: string;
  allName: string;
  allValue: string;
  /**
   * The page's form and controls. Without JavaScript it wraps the plain table, so that the row
   * checkboxes are inside it; with JavaScript it gets `null` and stands above the interactive table.
   */
  form(table: ReactNode | null): ReactNode;
}
