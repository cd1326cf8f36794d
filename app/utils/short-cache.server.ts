// Answers of the API that many pages ask for (the role's levels, the user's layout, the firm's
// preferences; never the user, whom every request asks for) kept for a few seconds per key: the
// loaders of one page and the pages of one visit ask once. A change made through this console
// forgets its entries at once; a role changed elsewhere on the API's next answer to the session
// (app/utils/access-stamps.server.ts); anything else within the few seconds.

export const SHORT_CACHE_MS = 3000;
const MAX_ENTRIES = 1000;

export interface ShortCache<T> {
  /** The kept answer, or `load`'s; a failed load is not kept. */
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets the key, and every key that starts with `key` followed by a space. */
  forget(key: string): void;
  clear(): void;
}

export function shortCache<T>(ttlMs = SHORT_CACHE_MS): ShortCache<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key, load) {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = load();
      entries.set(key, { at: now, value });
      value.catch(() => entries.delete(key));
      if (entries.size > MAX_ENTRIES) entries.clear();
      return value;
    },
    forget(key) {
      entries.delete(key);
      for (const kept of entries.keys()) if (kept.startsWith(`${key} `)) entries.delete(kept);
    },
    clear() {
      entries.clear();
    },
  };
}
