/**
 * The load context of one request to the console, as the console server builds it and the
 * console's entry and loaders read it: the nonce of the response's Content-Security-Policy, and,
 * when the answer is a document, a store for values its loaders keep out of the loader data
 * (the server draws them into the HTML; decision 074).
 */
// A type, not an interface: Remix's AppLoadContext takes it as an object of named values.
export type ConsoleLoadContext = {
  cspNonce: string;
  documentOnly: Map<string, unknown> | null;
};

/** Remix asks for data at paths ending in `.data` (single fetch); every other request that renders draws a document. */
export function consoleLoadContext(path: string, cspNonce: string): ConsoleLoadContext {
  return { cspNonce, documentOnly: path.endsWith(".data") ? null : new Map<string, unknown>() };
}

/** The store of values kept out of the loader data, or null when the loader data is all the browser gets. */
export function documentOnlyStore(context: unknown): Map<string, unknown> | null {
  const store = (context as Partial<ConsoleLoadContext> | undefined)?.documentOnly;
  return store instanceof Map ? store : null;
}
