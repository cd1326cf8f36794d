import type { AppLoadContext } from "@remix-run/node";

/**
 * The load context the console server gives the console for one request (its type is the
 * console's, app/utils/load-context.ts). Remix asks for data at paths ending in `.data` (single
 * fetch); every other request that renders draws a document, whose loaders get a store for what
 * they keep out of the loader data.
 */
export function consoleLoadContext(path: string, cspNonce: string): AppLoadContext {
  return { cspNonce, documentOnly: path.endsWith(".data") ? null : new Map<string, unknown>() };
}
