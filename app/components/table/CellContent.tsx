import { Anchor } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { TFunction } from "i18next";
import type { TableColumn } from "./columns";
import { useFirmTimeZone } from "../../utils/dates";
import { type ReferenceTitles, cellText } from "./format";
import type { TableRow } from "./types";

/** The detail page of a row. */
export const rowHref = (resourceKey: string, id: unknown) => `/${resourceKey}/${encodeURIComponent(String(id))}`;

interface Props {
  /** Passed down rather than looked up per cell: a page has hundreds of cells. */
  t: TFunction;
  resourceKey: string;
  column: TableColumn;
  row: TableRow;
  titles: ReferenceTitles;
}

/** One cell, the same in both renderers: the title column links to the row. */
export function CellContent({ t, resourceKey, column, row, titles }: Props) {
  const text = cellText(t, resourceKey, column, row[column.field], titles, useFirmTimeZone());
  if (column.isTitle && row.id !== undefined && row.id !== null) {
    return (
      <Anchor component={Link} to={rowHref(resourceKey, row.id)} size="sm">
        {text || String(row.id)}
      </Anchor>
    );
  }
  return <>{text}</>;
}
