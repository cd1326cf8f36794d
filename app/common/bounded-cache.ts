import { LRUCache } from "lru-cache";

/**
 * The one way server and console code keep answers in a process (decision 115): a bounded cache
 * (lru-cache) with the least recently used entry dropped past its bound and, when given a time to
 * live, each entry forgotten once it is that old on the clock it is given (the server's `ctx.clock`,
 * so tests move time without sleeping). It lives in app/common/ because the console may not import
 * server/ and the server may import only app/common/ of the console (scripts/dependency-cruiser.cjs).
 * Pure computations memoised for the browser too use `keptResults` (./kept-results), which stays
 * small enough for a page's scripts.
 *
 * Rules every cache follows:
 * - It has a bound (`max`); nothing kept grows with what clients send.
 * - A rejected promise is never kept: the next reader asks again.
 * - What a change makes wrong is forgotten by the code that makes the change, at once, in this
 *   process; other processes follow by the time to live, or by a version read with the data.
 *
 * The caches, what they keep, and what forgets an entry:
 *
 * | cache (module)                                       | key                            | bound | lives         | forgotten when                                                        |
 * | ---------------------------------------------------- | ------------------------------ | ----- | ------------- | --------------------------------------------------------------------- |
 * | dashboard answers (server/dashboard/dashboard.ts)    | firm, period, fields, walls    | 1,000 | 30 s (config) | time only: a count may be that late                                   |
 * | own role (app/utils/auth.server.ts)                  | session token, role            | 1,000 | 3 s           | a role change in this console (all); the access stamp (the session's) |
 * | table layouts (app/components/table/preferences…)    | session, table                 | 1,000 | 3 s           | the session saves or resets that layout                               |
 * | web preferences (app/components/table/preferences…)  | session                        | 1,000 | 3 s           | any save of the firm's web preferences (all sessions)                 |
 * | firm branding (app/utils/branding.server.ts)         | firm id or host                | 1,000 | 30 s          | a save of the firm in this console (all)                              |
 * | handed-over pages (app/components/table/page-hand…)  | token, session, query          | 200   | 15 s          | taken once; expired ones dropped when a page is handed over           |
 * | firm words, console (app/utils/firm-words.server.ts) | firm id                        | 500   | —             | /auth/me names another dictionary version                             |
 * | firm words, server (server/db/firm-words.ts)         | firm id                        | 500   | —             | the firm row names another dictionary version                         |
 * | title provider tokens (server/extraction/title-…)    | provider and credentials       | 100   | the token's   | the provider refuses the token (401)                                  |
 * | search counts (server/resources/row-counts.ts)       | table, SQL and parameters      | 1,000 | —             | the table's version moved (any process's write)                       |
 * | access stamps (app/utils/access-stamps.server.ts)    | session token                  | 5,000 | —             | never: a newer stamp replaces it, and tells the session's caches      |
 * | charset decoders (server/notices/mime-words.ts)      | the charset a message declares | 100   | —             | never: a decoder is pure                                              |
 * | court links (server/notices/links.ts)                | the link as written            | 2,000 | —             | never: parsing a link is pure                                         |
 * | court of a host (server/jurisdictions/federal-co…)   | the host as written            | 5,000 | —             | never: the court list ships with the code                             |
 * | storage path templates (server/dms/path-template.ts) | field and template text        | 500   | —             | never: keyed by the text itself; a changed template is another key    |
 * | notice mail templates (server/mail/notice-template…) | template text                  | 200   | —             | never: keyed by the text itself                                       |
 */
export interface BoundedCacheOptions {
  /** How many entries at most; past it, the least recently used goes. */
  max: number;
  /** How long an entry is kept, in milliseconds (it is gone once older); 0 keeps nothing. Without it, until pushed out. */
  ttlMs?: number;
  /** The clock the time to live is read on (milliseconds); the server passes its own. */
  now?: () => number;
}

export interface BoundedCache<V> {
  /** The kept value, or undefined when there is none or it expired. */
  get(key: string): V | undefined;
  /** Keeps the value (for `ttlMs`, when given, instead of the cache's time to live). */
  set(key: string, value: V, ttlMs?: number): void;
  /** The kept value, or `compute`'s, kept. */
  keep(key: string, compute: () => V): V;
  /** The kept value, forgotten: it is answered once. */
  take(key: string): V | undefined;
  forget(key: string): void;
  /** Forgets every key the test accepts. */
  forgetWhere(test: (key: string) => boolean): void;
  /** Drops the expired entries now, rather than when they are next asked for or pushed out. */
  dropExpired(): void;
  clear(): void;
  readonly size: number;
}

// lru-cache keeps no null or undefined value: each value is held in a box.
interface Box<V> {
  value: V;
}

export function boundedCache<V>(options: BoundedCacheOptions): BoundedCache<V> {
  const { max, ttlMs, now } = options;
  const keepsNothing = ttlMs !== undefined && ttlMs <= 0;
  // lru-cache reads an entry made at 0 as one without a time to live: its clock counts from a
  // millisecond before the cache was made, whatever the clock given reads (a test's starts at 0).
  const epoch = now ? now() - 1 : 0;
  const lru = new LRUCache<string, Box<V>>({
    max,
    ...(ttlMs !== undefined && !keepsNothing ? { ttl: ttlMs } : {}),
    // Read the clock at every check, not once a millisecond: an entry is good until exactly its end.
    ttlResolution: 0,
    ...(now ? { perf: { now: () => now() - epoch } } : {}),
  });

  const set = (key: string, value: V, ttl?: number) => {
    if (keepsNothing || (ttl !== undefined && ttl <= 0)) return;
    const box = { value };
    lru.set(key, box, ttl === undefined ? undefined : { ttl: Math.ceil(ttl) });
    if (value instanceof Promise) value.catch(() => lru.peek(key) === box && lru.delete(key));
  };

  return {
    get: (key) => lru.get(key)?.value,
    set,
    keep(key, compute) {
      const hit = lru.get(key);
      if (hit) return hit.value;
      const value = compute();
      set(key, value);
      return value;
    },
    take(key) {
      const hit = lru.get(key);
      if (hit) lru.delete(key);
      return hit?.value;
    },
    forget: (key) => void lru.delete(key),
    forgetWhere(test) {
      for (const key of [...lru.keys()]) if (test(key)) lru.delete(key);
    },
    dropExpired: () => void lru.purgeStale(),
    clear: () => lru.clear(),
    get size() {
      return lru.size;
    },
  };
}
