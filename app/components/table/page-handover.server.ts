import { boundedCache } from "../../common/bounded-cache";

/**
 * A document's page of rows, handed to the browser's follow-up request for them (decision 074).
 * The document is drawn from a page the API answered a moment ago; once interactive, the browser
 * asks the same loader for the rows, and gets that page instead of a second search. A page is kept
 * under a token the document gives its browser, with the session and query, for a few seconds,
 * and taken once: no other request (a later navigation or revalidation) is answered from it. A
 * browser without JavaScript never asks, so its pages are dropped when they expire or when the
 * store is full.
 */
export interface PageHandover<P> {
  handOver(key: string, page: P): void;
  /** The page handed over under `key`, once; undefined when there is none or it expired. */
  take(key: string): P | undefined;
}

export function pageHandover<P>(keepMs: number, limit: number, now: () => number = Date.now): PageHandover<P> {
  const kept = boundedCache<P>({ max: limit, ttlMs: keepMs, now });
  return {
    handOver(key, page) {
      // Pages of browsers that never ask (no JavaScript) go as soon as they expire.
      kept.dropExpired();
      kept.set(key, page);
    },
    take: (key) => kept.take(key),
  };
}

/** The document's token, who asked (the session's API token) and for which page (the entity and the API query). */
export const handoverKey = (token: string, sessionToken: string, resourceKey: string, query: string): string =>
  `${token}\n${sessionToken}\n${resourceKey}\n${query}`;
