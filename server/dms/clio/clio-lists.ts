import type { ClioSession } from "./clio-session";

// Clio's list answers: `{ data: [...], meta: { paging: { next: <url> } } }`, at most 200 records
// a page. A list is followed page by page up to a bound, so a huge account cannot keep a filing
// busy for ever.

const MAX_PAGES = 10;

interface Page<T> {
  data?: T[];
  meta?: { paging?: { next?: string } };
}

/** Every record of the list at `path` with `query` (limit 200), up to MAX_PAGES pages. */
export async function listAll<T>(session: ClioSession, path: string, query: Record<string, string | number | boolean>, action: string): Promise<T[]> {
  const records: T[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = (await (next ? session.call(next, {}, action) : session.call(path, { query: { ...query, limit: 200 } }, action))) as Page<T> | null;
    records.push(...(answer?.data ?? []));
    next = answer?.meta?.paging?.next;
    if (!next) break;
  }
  return records;
}

/** A Clio record that lives in a matter or a folder. */
export interface Container {
  id: number;
  type: "Matter" | "Folder";
}

export const sameContainer = (parent: { id?: unknown; type?: unknown } | null | undefined, container: Container) =>
  Number(parent?.id) === container.id && parent?.type === container.type;
