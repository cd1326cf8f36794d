import type { Clock } from "../lib/clock";

/**
 * Answers kept for a few seconds, in this process. A dashboard read by several people of a firm,
 * or reloaded, costs one set of aggregates per period and scope; a count may be that much late.
 */
export class ShortCache<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.evict(now);
    const value = compute();
    this.entries.set(key, { until: now + this.ttlMs, value });
    // A failed computation is not kept: the next reader tries again.
    value.catch(() => this.entries.delete(key));
    return value;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    // Still full of live entries: drop the oldest (a Map iterates in insertion order).
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
