/** The posts of a list page (see table-actions.server.ts). */
export const TABLE_INTENTS = { layout: "layout", columns: "columns", resetLayout: "reset-layout", striped: "striped" } as const;

/** The fetcher of the striping switch; the table reads its pending value to stripe at once. */
export const STRIPED_FETCHER_KEY = "table-striped";
