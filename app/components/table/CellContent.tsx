import { Anchor } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import type { TFunction } from "i18next";
import { findResource } from "../../common/resources";
import { recordPath } from "../../common/resources/types";
import type { TableColumn } from "./columns";
import { useFirmTimeZone } from "../../utils/dates";
import { type ReferenceTitles, cellText } from "./format";
import type { TableRow } from "./types";

/** The page of a row: the one its entity declares, or the generic record page. */
export const rowHref = (resourceKey: string, id: unknown) => recordPath(findResource(resourceKey) ?? { key: resourceKey }, String(id));

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
