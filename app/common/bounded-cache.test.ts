import { describe, expect, it } from "vitest";
import { boundedCache } from "./bounded-cache";

/** A clock of the server's shape (`now()`), moved by hand as the API tests move theirs. */
function manualClock(start: number): { now(): number; advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

describe("boundedCache", () => {
  it("keeps an answer for its time to live on the clock it is given, then asks again", () => {
    for (const start of [Date.UTC(2026, 0, 5), 0]) {
      const clock = manualClock(start);
      const cache = boundedCache<number>({ max: 10, ttlMs: 3000, now: () => clock.now() });
      let asked = 0;
      const answer = () => cache.keep("firm 1", () => ++asked);
      expect(answer()).toBe(1);
      clock.advance(3000);
      expect(answer()).toBe(1);
      clock.advance(1);
      expect(answer()).toBe(2);
      expect(asked).toBe(2);
    }
  });

  it("keeps nothing with a time to live of 0", () => {
    const cache = boundedCache<string>({ max: 10, ttlMs: 0 });
    let asked = 0;
    cache.keep("k", () => `answer ${++asked}`);
    expect(cache.keep("k", () => `answer ${++asked}`)).toBe("answer 2");
    expect(cache.size).toBe(0);
  });

  it("keeps an entry for its own time to live when given one", () => {
    const clock = manualClock(1_000_000);
    const cache = boundedCache<string>({ max: 10, now: () => clock.now() });
    cache.set("token", "abc", 60_000);
    cache.set("forever", "x");
    cache.set("already over", "y", 0);
    clock.advance(60_000);
    expect(cache.get("token")).toBe("abc");
    expect(cache.get("already over")).toBeUndefined();
    clock.advance(1);
    expect(cache.get("token")).toBeUndefined();
    expect(cache.get("forever")).toBe("x");
  });

  it("holds at most its bound, dropping the least recently used", () => {
    const cache = boundedCache<number>({ max: 3 });
    for (const n of [1, 2, 3]) cache.set(`k${n}`, n);
    expect(cache.get("k1")).toBe(1);
    cache.set("k4", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("k2")).toBeUndefined();
    expect([cache.get("k1"), cache.get("k3"), cache.get("k4")]).toEqual([1, 3, 4]);
    for (let n = 0; n < 1000; n++) cache.set(`host-${n}.example`, n);
    expect(cache.size).toBe(3);
  });

  it("keeps null answers", () => {
    const cache = boundedCache<string | null>({ max: 3 });
    let asked = 0;
    cache.keep("k", () => (asked++, null));
    expect(cache.keep("k", () => (asked++, "other"))).toBeNull();
    expect(asked).toBe(1);
  });

  it("forgets a promise that rejects, and only that one", async () => {
    const cache = boundedCache<Promise<string>>({ max: 10 });
    const failed = cache.keep("k", () => Promise.reject(new Error("API down")));
    await expect(failed).rejects.toThrow("API down");
    expect(cache.get("k")).toBeUndefined();
    expect(await cache.keep("k", () => Promise.resolve("answer"))).toBe("answer");
    expect(await cache.keep("k", () => Promise.resolve("again"))).toBe("answer");

    // A rejection of a promise replaced in the meantime leaves its replacement kept.
    let reject: (e: Error) => void = () => {};
    cache.set("r", new Promise((_, r) => (reject = r)));
    const replacement = Promise.resolve("fresh");
    cache.set("r", replacement);
    reject(new Error("late"));
    await new Promise((r) => setImmediate(r));
    expect(cache.get("r")).toBe(replacement);
  });

  it("forgets a key, the keys a test picks, or everything; a taken entry is answered once", () => {
    const cache = boundedCache<number>({ max: 10 });
    for (const [k, v] of [
      ["tok-a role-1", 1],
      ["tok-a role-2", 2],
      ["tok-b role-1", 3],
      ["other", 4],
    ] as const)
      cache.set(k, v);
    cache.forgetWhere((key) => key.startsWith("tok-a "));
    expect([cache.get("tok-a role-1"), cache.get("tok-a role-2"), cache.get("tok-b role-1")]).toEqual([undefined, undefined, 3]);
    cache.forget("tok-b role-1");
    expect(cache.get("tok-b role-1")).toBeUndefined();
    expect(cache.take("other")).toBe(4);
    expect(cache.take("other")).toBeUndefined();
    cache.set("x", 5);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("drops expired entries when told to, before they are asked for", () => {
    const clock = manualClock(5_000);
    const cache = boundedCache<string>({ max: 10, ttlMs: 100, now: () => clock.now() });
    cache.set("early", "a");
    clock.advance(101);
    cache.set("late", "b");
    cache.dropExpired();
    expect(cache.size).toBe(1);
    expect(cache.get("late")).toBe("b");
  });
});
