/**
 * Results of a pure computation kept by key, the oldest dropped past `limit`. For what every page
 * computes again from the same few inputs (a firm's two colours make its theme and CSS variables),
 * where recomputing costs milliseconds of each server render. A key longer than `longestKey` is
 * computed every time, so what is kept stays small whatever the keys a client sends.
 */
export function keptResults<V>(limit: number, longestKey = Infinity): (key: string, compute: () => V) => V {
  const kept = new Map<string, V>();
  return (key, compute) => {
    if (key.length > longestKey) return compute();
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (kept.size >= limit) kept.delete(kept.keys().next().value as string);
    kept.set(key, value);
    return value;
  };
}
