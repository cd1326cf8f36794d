import { Alert, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { FilterForm } from "./FilterForm";
import { InteractiveTable } from "./InteractiveTable";
import { PageControls } from "./PageControls";
import { PlainTable } from "./PlainTable";
import { QuickFilterLinks } from "./QuickFilterLinks";
import { useStriped } from "./StripedSwitch";
import { TableToolbar } from "./TableToolbar";
import type { TableData, TableSelection } from "./types";

/**
 * The one table of every registry entry: one declaration, two renderers. The server (and a
 * browser without JavaScript) gets a plain table whose sort, paging, filters and quick filters are
 * links and GET forms; once the page is interactive, mantine-react-table takes over the same URL.
 * `actions` are extra toolbar buttons of the page (import, ...); `selection` adds row checkboxes
 * and the page's form that acts on the ticked rows.
 */
export function ResourceTable({ table, actions, selection }: { table: TableData; actions?: ReactNode; selection?: TableSelection }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const striped = useStriped(table.striped);
  const error = table.loadError;
  const plain = <PlainTable table={table} striped={striped} selection={selection} />;
  return (
    <Stack gap="sm">
      <TableToolbar table={table} actions={actions} interactive={hydrated} />
      <QuickFilterLinks table={table} />
      {error ? (
        <Alert color="red" role="alert" data-testid="table-error">
          {t("errors:tableLoading", { status: error.status, text: error.text.startsWith("errors:") ? t(error.text) : error.text })}
        </Alert>
      ) : null}
      {hydrated ? (
        <>
          {selection?.form(null)}
          {/* Keyed by entity: the column layout it holds belongs to one table. */}
          <InteractiveTable key={table.resourceKey} table={table} striped={striped} selection={selection} />
        </>
      ) : (
        <>
          <FilterForm table={table} />
          {selection ? selection.form(plain) : plain}
          <PageControls table={table} />
        </>
      )}
    </Stack>
  );
}
