import { describe, expect, it } from "vitest";
import { keptResults } from "./kept-results";

describe("keptResults", () => {
  it("computes once per key and answers again from what it kept", () => {
    const kept = keptResults<number>(4);
    let computed = 0;
    const square = (n: number) => kept(String(n), () => (computed++, n * n));
    expect([square(3), square(3), square(4), square(3)]).toEqual([9, 9, 16, 9]);
    expect(computed).toBe(2);
  });

  it("keeps at most its limit, dropping the oldest", () => {
    const kept = keptResults<string>(2);
    const calls: string[] = [];
    const get = (key: string) => kept(key, () => (calls.push(key), key.toUpperCase()));
    get("a");
    get("b");
    get("c");
    get("b");
    get("a");
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });

  it("computes a key longer than its longest every time, and keeps none of it", () => {
    const kept = keptResults<number>(4, 3);
    let computed = 0;
    const length = (key: string) => kept(key, () => (computed++, key.length));
    expect([length("abcd"), length("abcd"), length("abc"), length("abc")]).toEqual([4, 4, 3, 3]);
    expect(computed).toBe(3);
  });
});
