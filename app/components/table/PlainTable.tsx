import { Box, Checkbox, Table } from "../../utils/mantine";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFocusClass } from "../../utils/focus-class";
import { changeState, sortDirection, tableHref, toggledSort } from "../../utils/table-url";
import { type ArrangedColumn, MIN_WIDTH } from "./layout";
import { PlainRows } from "./PlainRows";
import { SpriteIcon } from "../shell/SpriteIcon";
import type { TableData, TableSelection } from "./types";

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

// The header row as plain elements with the classes and data attributes Mantine's Table.Thead,
// Table.Tr and Table.Th give inside this table (its default row borders, hover and striping): the
// same markup, without a Mantine component per header cell (decision 059 did the rows).
const theadClass = `${Table.classes.thead} mantine-Table-thead`;
const trClass = `${Table.classes.tr} mantine-Table-tr`;
const thClass = `${Table.classes.th} mantine-Table-th`;

/** A column header whose sort is a real link: it works without JavaScript. */
function SortLink({ table, column }: { table: TableData; column: ArrangedColumn }) {
  const { t } = useTranslation();
  const location = useLocation();
  const focus = useFocusClass();
  const direction = sortDirection(table.state.sort, column.field);
  const lead = table.state.sort.split(",")[0]?.replace(/^-/, "") === column.field;
  const to = tableHref(
    location.pathname,
    changeState(table.state, { sort: toggledSort(table.state.sort, column.field) }),
    table.spec,
    new URLSearchParams(location.search),
  );
  const icon = lead && direction === "asc" ? "arrowUp" : lead && direction === "desc" ? "arrowDown" : "arrowsSort";
  const label = t(column.labelKey);
  // A plain link: this header is drawn until the page is interactive, then the interactive table's replaces it.
  return (
    <a className={`sort-link ${focus}`} href={to} aria-label={t("table:sortBy", { column: label })}>
      {label}
      <SpriteIcon name={icon} className={lead ? undefined : "sort-idle"} />
    </a>
  );
}

/**
 * The server's and the no-JavaScript renderer: a plain Mantine table drawn from the registry's
 * columns, with a leading column of real checkboxes when the page offers a selection.
 */
export function PlainTable({ table, striped, selection }: { table: TableData; striped: boolean; selection?: TableSelection }) {
  const { t } = useTranslation();
  const columns = table.columns.filter((c) => c.visible);
  const lead = table.state.sort.split(",")[0] ?? "";
  // Mantine's value for a striped table, which its rows carry: the table says it too, as the interactive renderer does.
  const stripes = striped ? "odd" : undefined;
  return (
    <Box style={{ overflowX: "auto" }}>
      <Table striped={striped} highlightOnHover withTableBorder data-testid="resource-table" data-renderer="plain" data-striped={stripes}>
        <thead className={theadClass}>
          <tr className={trClass} data-with-row-border data-hover data-striped={stripes}>
            {selection ? (
              <th style={{ width: 40 }} className={thClass}>
                <Checkbox size="xs" name={selection.allName} value={selection.allValue} aria-label={selection.allLabel} disabled={table.rows.length === 0} />
              </th>
            ) : null}
            {columns.map((c) => (
              <th
                key={c.field}
                // Never narrower than a column of the interactive table: a phone scrolls the table instead.
                style={{ minWidth: MIN_WIDTH, ...(c.width ? { width: c.width } : {}) }}
                className={thClass}
                aria-sort={lead.replace(/^-/, "") === c.field ? ARIA_SORT[lead.startsWith("-") ? "desc" : "asc"] : undefined}
                data-field={c.field}
              >
                {c.sortable ? <SortLink table={table} column={c} /> : t(c.labelKey)}
              </th>
            ))}
          </tr>
        </thead>
        <PlainRows table={table} columns={columns} selection={selection} />
      </Table>
    </Box>
  );
}
