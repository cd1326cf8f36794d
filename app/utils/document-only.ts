import { createContext, useContext } from "react";
import type { AppLoadContext } from "@remix-run/node";

/**
 * Values a document request's loaders keep out of the loader data: the server draws them into the
 * HTML and never serialises them, so the browser gets them once. Keyed by what the loader names
 * them. Only set while rendering a document on the server; the browser sees null and asks for
 * such values again once the page is interactive (decision 074). The store comes in the load
 * context (app/utils/load-context.ts).
 */
export type DocumentOnly = NonNullable<AppLoadContext["documentOnly"]>;

export const DocumentOnlyContext = createContext<DocumentOnly | null>(null);

/** The value a loader kept out of this document's loader data under `key`, while the server draws. */
export function useDocumentOnly<T>(key: string): T | undefined {
  return useContext(DocumentOnlyContext)?.get(key) as T | undefined;
}
