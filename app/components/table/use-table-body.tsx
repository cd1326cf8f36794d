import { useFetcher, useLocation } from "@remix-run/react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useDocumentOnly } from "../../utils/document-only";
import { type TableBody, type TableData, type TablePage, hasBody, tableBodyKey } from "./types";

/**
 * The list URL's own loader (an index route's data is asked for with `index`, Remix's convention),
 * with the token under which the document's page waits for this request.
 */
function ownLoaderUrl(pathname: string, search: string, handover: string | undefined): string {
  const params = new URLSearchParams(search);
  params.set("index", "");
  if (handover) params.set("handover", handover);
  return `${pathname}?${params}`;
}

/**
 * Asks the list's loader for the rows once (a data request gets them) and hands them up. It is
 * drawn only until they are there: an unmounted fetcher is forgotten, where a mounted one would be
 * asked again after every later action of the page.
 */
function TableBodyRequest({ handover, onBody }: { handover: string | undefined; onBody: (table: TableData) => void }) {
  const fetcher = useFetcher<{ table: TablePage }>();
  const { pathname, search } = useLocation();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    fetcher.load(ownLoaderUrl(pathname, search, handover));
  }, [fetcher, pathname, search, handover]);
  const table = fetcher.data?.table;
  useEffect(() => {
    if (table && hasBody(table)) onBody(table);
  }, [table, onBody]);
  return null;
}

/**
 * The whole table of a list page, or null while the browser has only its frame, with what to draw
 * meanwhile. A document's loader data goes without the rows (decision 074): the server draws them
 * from what the loader kept aside, and the browser, once interactive, asks the same loader for
 * them once. A client navigation's loader data holds them already.
 */
export function useTableBody(page: TablePage): { table: TableData | null; request: ReactNode } {
  const drawn = useDocumentOnly<TableBody>(tableBodyKey(page.resourceKey));
  const [fetched, setFetched] = useState<TableData | null>(null);
  if (hasBody(page)) return { table: page, request: null };
  if (drawn) return { table: { ...page, ...drawn }, request: null };
  if (fetched?.resourceKey === page.resourceKey) return { table: fetched, request: null };
  return { table: null, request: <TableBodyRequest handover={page.handover} onBody={setFetched} /> };
}
