/**
 * The load context of one request to the console: the console server (server/console-host/) builds it,
 * the console's entry and loaders read it. Declared here, once, as Remix's AppLoadContext, which
 * is the type the console server hands over: the nonce of the response's Content-Security-Policy,
 * and, when the answer is a document, a store for values its loaders keep out of the loader data
 * (the server draws them into the HTML; decision 074). Both are optional: a loader called without
 * the console server (a test) gets neither.
 */
declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce?: string;
    documentOnly?: Map<string, unknown> | null;
  }
}

/** The store of values kept out of the loader data, or null when the loader data is all the browser gets. */
export function documentOnlyStore(context: unknown): Map<string, unknown> | null {
  const store = (context as { documentOnly?: unknown } | undefined)?.documentOnly;
  return store instanceof Map ? (store as Map<string, unknown>) : null;
}
