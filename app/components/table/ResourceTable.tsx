import { Alert, Stack } from "../../utils/mantine";
import { type ReactNode, Suspense, lazy } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { FilterForm } from "./FilterForm";
import { PageControls } from "./PageControls";
import { PlainTable } from "./PlainTable";
import { QuickFilterLinks } from "./QuickFilterLinks";
import { useStriped } from "./StripedSwitch";
import { TableToolbar } from "./TableToolbar";
import type { TableData, TablePage, TableSelection } from "./types";
import { useTableBody } from "./use-table-body";

// mantine-react-table, and what only it uses, loads once the page is interactive instead of before:
// the plain table serves until it arrives, so the page's links and forms work from the start.
const InteractiveTable = lazy(() => import("./InteractiveTable").then((m) => ({ default: m.InteractiveTable })));

/**
 * The one table of every registry entry: one declaration, two renderers. The server (and a
 * browser without JavaScript) gets a plain table whose sort, paging, filters and quick filters are
 * links and GET forms; once the page is interactive and has its rows, mantine-react-table takes
 * over the same URL. `actions` are extra toolbar buttons of the page (import, ...); `selection`
 * adds row checkboxes and the page's form that acts on the ticked rows.
 */
export function ResourceTable({
  table: page,
  actions,
  selection: selectionOf,
}: {
  table: TablePage;
  actions?: ReactNode;
  selection?: (table: TableData) => TableSelection;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const striped = useStriped(page.striped);
  const { table, request } = useTableBody(page);
  const selection = table && selectionOf ? selectionOf(table) : undefined;
  const plain = table ? <PlainTable table={table} striped={striped} selection={selection} /> : null;
  const plainPart = table ? (
    <div className="plain-part">
      <FilterForm table={table} />
      {selection ? selection.form(plain) : plain}
      <PageControls table={table} />
    </div>
  ) : null;
  const error = page.loadError;
  return (
    <Stack gap="sm">
      {request}
      <TableToolbar table={page} actions={actions} interactive={hydrated} />
      <QuickFilterLinks table={page} />
      {error ? (
        <Alert color="red" role="alert" data-testid="table-error">
          {t("errors:tableLoading", { status: error.status, text: error.text.startsWith("errors:") ? t(error.text) : error.text })}
        </Alert>
      ) : null}
      {hydrated && table ? (
        <Suspense fallback={plainPart}>
          {selection?.form(null)}
          {/* Keyed by entity: the column layout it holds belongs to one table. */}
          <InteractiveTable key={table.resourceKey} table={table} striped={striped} selection={selection} />
        </Suspense>
      ) : (
        (plainPart ?? (
          // The server drew this part from rows the browser was not sent twice: React keeps it as
          // it is (an empty inner HTML is never compared while hydrating) until the rows arrive.
          <div className="plain-part" dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
        ))
      )}
    </Stack>
  );
}
