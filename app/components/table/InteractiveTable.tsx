import { Text } from "../../utils/mantine";
import { useDebouncedCallback } from "@mantine/hooks";
import { useFetcher, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import type { MRT_ColumnDef, MRT_ColumnFiltersState, MRT_Localization, MRT_RowSelectionState, MRT_SortingState, MRT_TableOptions } from "mantine-react-table";
import { MantineReactTable, useMantineReactTable } from "mantine-react-table";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES } from "../../utils/paging";
import { type PageSize, type TableState, changeState, neighbourState, tableHref } from "../../utils/table-url";
import { CellContent } from "./CellContent";
import { DateEndInput, DateRangesContext, useDateRanges } from "./DateRangeFilters";
import { filterChoices } from "./format";
import { TABLE_INTENTS } from "./intents";
import { type ArrangedColumn, MAX_WIDTH, MIN_WIDTH, type TableLayout } from "./layout";
import type { TableData, TableRow, TableSelection } from "./types";

// The interactive renderer: mantine-react-table in manual mode. It holds no table state of its
// own: sort, page, size, search and filters are read from the URL and every change navigates,
// so the loader fetches the page exactly as it does for a link. Only the column layout (order,
// visibility, widths) is local; it is saved for the user as it changes.

type Updater<T> = T | ((old: T) => T);
const apply = <T,>(updater: Updater<T>, old: T): T => (typeof updater === "function" ? (updater as (o: T) => T)(old) : updater);

const sameFilters = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([field, value]) => b[field] === value);

function columnFiltersOf(table: TableData, dateValue: (field: string) => string | undefined): MRT_ColumnFiltersState {
  const out: MRT_ColumnFiltersState = [];
  for (const c of table.columns) {
    const value = c.filter === "dateRange" ? dateValue(c.field) : c.filter && table.state.filters[c.field];
    if (value) out.push({ id: c.field, value });
  }
  return out;
}

/** MRT's filter values back to URL filters; date ranges are not MRT's to change (see DateRangeFilters). */
function filtersFrom(columns: ArrangedColumn[], next: MRT_ColumnFiltersState, current: Record<string, string>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const c of columns) {
    const range = current[c.field];
    if (c.filter === "dateRange" && range) filters[c.field] = range;
  }
  for (const { id, value } of next) {
    const column = columns.find((c) => c.field === id);
    if (!column || column.filter === "dateRange") continue;
    const text = String(value ?? "").trim();
    if (text) filters[id] = text;
  }
  return filters;
}

/** A date range column's filter (its variant is "date-range"): MRT draws the cell, the ends are ours. */
function dateRangeFilter(field: string, localization: MRT_Localization): Partial<MRT_ColumnDef<TableRow>> {
  return {
    Filter: ({ rangeFilterIndex }) =>
      rangeFilterIndex === 1 ? (
        <DateEndInput field={field} end="to" label={localization.max} />
      ) : (
        <DateEndInput field={field} end="from" label={localization.min} />
      ),
    filterTooltipValueFn: (value) => String(value).replace("..", " – "),
  };
}

/** MRT's own checkbox column: first, and never part of the saved layout. */
const SELECT_COLUMN = "mrt-row-select";

const rowSelectionOf = (ids: string[]): MRT_RowSelectionState => Object.fromEntries(ids.map((id) => [id, true]));

/** Row selection held by the page: MRT reads the ticked ids and reports every change. */
function selectionOptions(selection: TableSelection | undefined): Partial<MRT_TableOptions<TableRow>> {
  if (!selection) return {};
  const current = rowSelectionOf(selection.selected);
  return {
    enableRowSelection: true,
    enableSelectAll: true,
    selectAllMode: "page",
    // The page says what is selected in its own controls.
    positionToolbarAlertBanner: "none",
    onRowSelectionChange: (updater: Updater<MRT_RowSelectionState>) => {
      const next = apply(updater, current);
      selection.onChange(Object.keys(next).filter((id) => next[id]));
    },
    mantineSelectAllCheckboxProps: { "aria-label": selection.allLabel },
    mantineSelectCheckboxProps: ({ row }) => ({ "aria-label": selection.rowLabel(row.original) }),
  };
}

function layoutOf(columns: ArrangedColumn[], visibility: Record<string, boolean>, order: string[], sizing: Record<string, number>): TableLayout {
  const fields = columns.map((c) => c.field);
  const widths: Record<string, number> = {};
  for (const [field, width] of Object.entries(sizing)) {
    if (fields.includes(field)) widths[field] = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(width)));
  }
  return {
    hidden: fields.filter((f) => visibility[f] === false),
    order: order.filter((f) => fields.includes(f)),
    widths,
  };
}

export function InteractiveTable({ table, striped, selection }: { table: TableData; striped: boolean; selection?: TableSelection }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const layoutFetcher = useFetcher();
  const { state, spec, columns } = table;

  const [visibility, setVisibility] = useState<Record<string, boolean>>(() => Object.fromEntries(columns.map((c) => [c.field, c.visible])));
  const [order, setOrder] = useState<string[]>(() => columns.map((c) => c.field));
  const [sizing, setSizing] = useState<Record<string, number>>(() => Object.fromEntries(columns.filter((c) => c.width).map((c) => [c.field, c.width!])));

  const saveLayout = useDebouncedCallback((layout: TableLayout) => {
    layoutFetcher.submit({ intent: TABLE_INTENTS.layout, layout: JSON.stringify(layout) }, { method: "post" });
  }, 800);

  const go = (next: TableState) => {
    const href = tableHref(location.pathname, next, spec, new URLSearchParams(location.search));
    if (href !== `${location.pathname}${location.search}`) navigate(href, { preventScrollReset: true });
  };
  const ranges = useDateRanges(table, (filters) => {
    if (!sameFilters(filters, state.filters)) go(changeState(state, { filters }));
  });

  const sorting: MRT_SortingState = state.sort
    .split(",")
    .map((s) => ({ id: s.replace(/^-/, ""), desc: s.startsWith("-") }))
    .filter((s) => columns.some((c) => c.field === s.id));
  // Stable between renders: MRT copies a filter into its inputs whenever the value's identity changes.
  const dateValues = columns.map((c) => (c.filter === "dateRange" ? ranges.mrtValue(c.field) : "")).join("|");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the date values are read through `ranges`; `dateValues` says when they change.
  const columnFilters = useMemo(() => columnFiltersOf(table, ranges.mrtValue), [table, dateValues]);
  const pagination: { pageIndex: number; pageSize: number } = { pageIndex: state.page - 1, pageSize: state.size };
  const columnOrder = selection ? [SELECT_COLUMN, ...order] : order;

  const localization = t("table:mrt", { returnObjects: true }) as MRT_Localization;
  const mrtColumns = useMemo<MRT_ColumnDef<TableRow>[]>(
    () =>
      columns.map((c) => {
        const options = filterChoices(t, table.resourceKey, c, table.referenceOptions);
        return {
          id: c.field,
          accessorFn: (row) => row[c.field],
          header: t(c.labelKey),
          enableSorting: c.sortable,
          sortDescFirst: false,
          enableColumnFilter: Boolean(c.filter),
          enableHiding: !c.isTitle,
          filterVariant: c.filter === "dateRange" ? "date-range" : options ? "select" : "text",
          mantineFilterSelectProps: options ? { data: options } : undefined,
          ...(c.filter === "dateRange" ? dateRangeFilter(c.field, localization) : {}),
          ...(c.width ? { size: c.width } : {}),
          Cell: ({ row }) => <CellContent t={t} resourceKey={table.resourceKey} column={c} row={row.original} titles={table.titles} />,
        };
      }),
    [columns, t, table.resourceKey, table.referenceOptions, table.titles, localization],
  );

  const mrt = useMantineReactTable<TableRow>({
    columns: mrtColumns,
    data: table.rows,
    getRowId: (row, index) => String(row.id ?? index),
    localization,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: table.total,
    autoResetPageIndex: false,
    enableMultiSort: false,
    enableSortingRemoval: false,
    enableColumnFilterModes: false,
    enableFacetedValues: false,
    enableColumnActions: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    // Columns are ordered from the show/hide menu: a drag handle in every header widened each
    // column past what a laptop's table box holds.
    enableColumnOrdering: true,
    enableColumnDragging: false,
    enableColumnResizing: true,
    columnResizeMode: "onEnd",
    enableGlobalFilter: true,
    positionGlobalFilter: "left",
    layoutMode: "semantic",
    // Narrow by default so every column fits; the browser widens them into the page's width.
    defaultColumn: { size: 100, minSize: MIN_WIDTH, maxSize: MAX_WIDTH },
    initialState: { showGlobalFilter: true, showColumnFilters: columnFilters.length > 0, density: "xs" },
    state: {
      sorting,
      columnFilters,
      globalFilter: state.q,
      pagination,
      columnVisibility: visibility,
      columnOrder,
      columnSizing: sizing,
      ...(selection ? { rowSelection: rowSelectionOf(selection.selected) } : {}),
      showProgressBars: navigation.state !== "idle",
    },
    // MRT reports its state back while it mounts (the search box, the filters): only a real change
    // navigates, or a shared URL would lose its page on hydration.
    onSortingChange: (updater: Updater<MRT_SortingState>) => {
      const next = apply(updater, sorting);
      const sort = next.length ? next.map((s) => `${s.desc ? "-" : ""}${s.id}`).join(",") : spec.defaultSort;
      if (sort !== state.sort) go(changeState(state, { sort }));
    },
    onGlobalFilterChange: (updater: Updater<unknown>) => {
      const q = String(apply(updater, state.q) ?? "").trim();
      if (q !== state.q) go(changeState(state, { q }));
    },
    onColumnFiltersChange: (updater: Updater<MRT_ColumnFiltersState>) => {
      const filters = filtersFrom(columns, apply(updater, columnFilters), state.filters);
      if (!sameFilters(filters, state.filters)) go(changeState(state, { filters }));
    },
    onPaginationChange: (updater: Updater<typeof pagination>) => {
      const next = apply(updater, pagination);
      const step = next.pageIndex + 1 - state.page;
      // The page before or after this one goes with the API's cursor for it (decision 121).
      if (next.pageSize === state.size && (step === 1 || step === -1)) go(neighbourState(state, table.cursors, step));
      else go(next.pageSize !== state.size ? changeState(state, { size: next.pageSize as PageSize }) : changeState(state, { page: next.pageIndex + 1 }));
    },
    onColumnVisibilityChange: (updater: Updater<Record<string, boolean>>) => {
      const next = apply(updater, visibility);
      setVisibility(next);
      saveLayout(layoutOf(columns, next, order, sizing));
    },
    onColumnOrderChange: (updater: Updater<string[]>) => {
      const next = apply(updater, columnOrder).filter((f) => f !== SELECT_COLUMN);
      setOrder(next);
      saveLayout(layoutOf(columns, visibility, next, sizing));
    },
    onColumnSizingChange: (updater: Updater<Record<string, number>>) => {
      const next = apply(updater, sizing);
      setSizing(next);
      saveLayout(layoutOf(columns, visibility, order, next));
    },
    ...selectionOptions(selection),
    mantinePaginationProps: { rowsPerPageOptions: PAGE_SIZES.map(String) },
    mantineTableProps: { striped, highlightOnHover: true },
    // A long subject wraps inside its column, as in the plain table, instead of one line as wide as itself.
    mantineTableBodyCellProps: { style: { whiteSpace: "normal", overflowWrap: "anywhere" } },
    mantinePaperProps: { withBorder: true, shadow: "none" },
    // Marked as the plain table is, so both renderers read the same.
    mantineTableContainerProps: { "data-testid": "resource-table", "data-renderer": "interactive", ...(striped ? { "data-striped": "odd" } : {}) } as Record<
      string,
      string
    >,
  });

  return (
    <DateRangesContext.Provider value={ranges}>
      {ranges.waiting.map((field) => (
        <Text key={field} size="sm" c="red" role="alert">
          {t(columns.find((c) => c.field === field)!.labelKey)}: {t("errors:selectTwoDates")}
        </Text>
      ))}
      <MantineReactTable table={mrt} />
    </DateRangesContext.Provider>
  );
}
