import type { ReactNode } from "react";
import type { ParsedTableUrl, TableSpec, TableState } from "../../utils/table-url";
import type { ReferenceTitles } from "./format";
import type { ArrangedColumn, TableLayout } from "./layout";

export type TableRow = Record<string, unknown>;

export interface ReferenceOption {
  value: string;
  label: string;
}

/**
 * What a page's rows are drawn from. A document's loader data goes without it: the server draws it
 * into the HTML and the browser asks for it once the page is interactive (decision 074).
 */
export interface TableBody {
  rows: TableRow[];
  titles: ReferenceTitles;
  /** Choices of a reference filter; a column without them filters by a typed id. */
  referenceOptions: Record<string, ReferenceOption[]>;
}

/** The rest of a resource table: columns, state, counts, what the role may do. */
export interface TableFrame {
  resourceKey: string;
  columns: ArrangedColumn[];
  total: number;
  state: TableState;
  spec: TableSpec;
  errors: ParsedTableUrl["errors"];
  partialRanges: ParsedTableUrl["partialRanges"];
  /** The API's cursors of the previous and next pages, for the pager's links (decision 121). */
  cursors: { previous?: string; next?: string };
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
  /** A document's frame: the token under which its page of rows waits for the browser's request. */
  handover?: string;
}

/** Everything a resource table needs to draw its rows. */
export type TableData = TableFrame & TableBody;

/** A list loader's table: whole, or only its frame when the answer is a document. */
export type TablePage = TableData | TableFrame;

export const hasBody = (table: TablePage): table is TableData => "rows" in table;

/** Under which key a document's loader keeps a table's body out of the loader data. */
export const tableBodyKey = (resourceKey: string): string => `table-body:${resourceKey}`;

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
