import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useDocumentOnly } from "../../utils/document-only";
import { type TableBody, type TableData, type TablePage, hasBody, tableBodyKey } from "./types";

/** The list URL's own loader: an index route's data is asked for with `index` (Remix's convention). */
function ownLoaderUrl(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.set("index", "");
  return `${pathname}?${params}`;
}

/**
 * The whole table of a list page, or null while the browser has only its frame. A document's
 * loader data goes without the rows (decision 074): the server draws them from what the loader
 * kept aside, and the browser, once interactive, asks the same loader for them once. A client
 * navigation's loader data holds them already.
 */
export function useTableBody(page: TablePage): TableData | null {
  const drawn = useDocumentOnly<TableBody>(tableBodyKey(page.resourceKey));
  const fetcher = useFetcher<{ table: TablePage }>();
  const { pathname, search } = useLocation();
  const missing = !hasBody(page) && !drawn;
  const asked = useRef(false);
  useEffect(() => {
    if (!missing || asked.current) return;
    asked.current = true;
    fetcher.load(ownLoaderUrl(pathname, search));
  }, [missing, fetcher, pathname, search]);

  if (hasBody(page)) return page;
  if (drawn) return { ...page, ...drawn };
  const fetched = fetcher.data?.table;
  return fetched && hasBody(fetched) && fetched.resourceKey === page.resourceKey ? fetched : null;
}
