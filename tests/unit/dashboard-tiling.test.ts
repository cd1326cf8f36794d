import { describe, expect, it } from "vitest";
import { type Ladder, type SignedTiling, tile, tileNearest } from "../../server/dashboard/tiling";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// The ladder migration 017 writes: an hour, then days doubling to 256.
const LADDER: Ladder = [HOUR, ...Array.from({ length: 9 }, (_, i) => DAY * 2 ** i)].map((size, level) => ({ level, size }));

/** The stretches the blocks and the rest cover, in order, merged where they touch. */
function covered(range: { from: number; to: number }, ladder: Ladder) {
  const t = tile(range, ladder);
  const parts = [
    ...t.blocks.map((b) => {
      const size = ladder.find((l) => l.level === b.level)!.size;
      return { from: b.bucket * size, to: (b.bucket + 1) * size };
    }),
    ...t.rest.map((r) => ({ from: r.from!, to: r.to })),
  ].sort((a, b) => a.from - b.from);
  for (let i = 1; i < parts.length; i++) expect(parts[i]!.from).toBe(parts[i - 1]!.to);
  return { from: parts[0]?.from, to: parts.at(-1)?.to, blocks: t.blocks.length, rest: t.rest };
}

describe("cutting a period into kept-count buckets", () => {
  it("covers a year between New York midnights exactly, with no part left over", () => {
    const range = { from: Date.parse("2025-03-11T04:00:00Z"), to: Date.parse("2026-03-11T04:00:00Z") };
    const c = covered(range, LADDER);
    expect([c.from, c.to]).toEqual([range.from, range.to]);
    expect(c.rest).toEqual([]);
    expect(c.blocks).toBeLessThan(60);
  });

  it("leaves the minutes inside an hour at each end to be counted from the rows (India, +5:30)", () => {
    const range = { from: Date.parse("2026-03-09T18:30:00Z"), to: Date.parse("2026-03-10T18:30:00Z") };
    const c = covered(range, LADDER);
    expect(c.rest).toEqual([
      { from: range.from, to: Date.parse("2026-03-09T19:00:00Z") },
      { from: Date.parse("2026-03-10T18:00:00Z"), to: range.to },
    ]);
  });

  it("uses only the sizes it is given: from a day up, the hours at the ends are left over", () => {
    const fromADay = LADDER.filter((l) => l.size >= DAY);
    const range = { from: Date.parse("2026-01-01T05:00:00Z"), to: Date.parse("2026-03-10T05:00:00Z") };
    const c = covered(range, fromADay);
    expect(c.rest).toEqual([
      { from: range.from, to: Date.parse("2026-01-02T00:00:00Z") },
      { from: Date.parse("2026-03-10T00:00:00Z"), to: range.to },
    ]);
    expect([c.from, c.to]).toEqual([range.from, range.to]);
  });

  it("gives nothing for an empty or reversed period, and nothing before 1970", () => {
    expect(tile({ from: 5 * HOUR, to: 5 * HOUR }, LADDER)).toEqual({ blocks: [], rest: [] });
    expect(tile({ from: 6 * HOUR, to: 5 * HOUR }, LADDER)).toEqual({ blocks: [], rest: [] });
    expect(tile({ from: -DAY, to: HOUR }, LADDER)).toEqual({ blocks: [{ level: 0, bucket: 0 }], rest: [] });
  });
});

/** Each hour's count of how often the tiling reads it (buckets and rows, in less off), over [lo, hi). */
function weights(t: SignedTiling, ladder: Ladder, lo: number, hi: number): number[] {
  const w = Array.from({ length: (hi - lo) / HOUR }, () => 0);
  const add = (from: number, to: number, sign: number) => {
    for (let h = from; h < to; h += HOUR) w[(h - lo) / HOUR]! += sign;
  };
  for (const b of t.blocks) {
    const size = ladder.find((l) => l.level === b.level)!.size;
    add(b.bucket * size, (b.bucket + 1) * size, b.sign);
  }
  for (const r of t.rest) add(r.from, r.to, r.sign);
  return w;
}

describe("reading a period's ends from the nearer midnight", () => {
  const fromADay = LADDER.filter((l) => l.size >= DAY);

  it("reads a year from New York midnight as whole days less five hours at each end, each hour once", () => {
    const range = { from: Date.parse("2025-11-26T05:00:00Z"), to: Date.parse("2026-11-26T05:00:00Z") };
    const t = tileNearest(range, LADDER, DAY);
    const lo = range.from - 5 * HOUR;
    const w = weights(t, LADDER, lo, range.to + 19 * HOUR);
    expect(w.slice(0, 5).every((x) => x === 0)).toBe(true);
    expect(w.slice(5, w.length - 19).every((x) => x === 1)).toBe(true);
    expect(w.slice(w.length - 19).every((x) => x === 0)).toBe(true);
    expect(t.rest).toEqual([]);
    expect(t.blocks.filter((b) => b.sign < 0)).toHaveLength(5);
    expect(t.blocks.length).toBeLessThanOrEqual(tile(range, LADDER).blocks.length - 10);
  });

  it("from a day up, takes five hours of rows off a day's bucket instead of counting nineteen", () => {
    const range = { from: Date.parse("2026-01-01T05:00:00Z"), to: Date.parse("2026-03-10T05:00:00Z") };
    const t = tileNearest(range, fromADay, DAY);
    expect(t.rest).toHaveLength(2);
    expect(t.rest).toEqual(
      expect.arrayContaining([
        { from: Date.parse("2026-01-01T00:00:00Z"), to: range.from, sign: -1 },
        { from: Date.parse("2026-03-10T00:00:00Z"), to: range.to, sign: 1 },
      ]),
    );
    const w = weights(t, fromADay, Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-03-11T00:00:00Z"));
    expect(w.slice(0, 5).every((x) => x === 0) && w.slice(5, -19).every((x) => x === 1) && w.slice(-19).every((x) => x === 0)).toBe(true);
  });

  it("leaves a short period as it is, and keeps the ends it is told to keep", () => {
    const range = { from: Date.parse("2026-03-10T05:00:00Z"), to: Date.parse("2026-03-10T10:00:00Z") };
    expect(tileNearest(range, LADDER, DAY).blocks.every((b) => b.sign === 1)).toBe(true);
    const year = { from: Date.parse("2025-11-26T05:00:00Z"), to: Date.parse("2026-11-26T05:00:00Z") };
    const kept = tileNearest(year, LADDER, DAY, { start: false, end: false });
    expect(kept.blocks).toEqual(tile(year, LADDER).blocks.map((b) => ({ ...b, sign: 1 })));
  });

  it("takes no rows off when told not to (Kolkata's half hours): the end stays where rows would be taken off", () => {
    const range = { from: Date.parse("2026-02-28T18:30:00Z"), to: Date.parse("2026-03-31T18:30:00Z") };
    const t = tileNearest(range, LADDER, DAY, { rowsOff: false });
    expect(t.rest.every((r) => r.sign === 1)).toBe(true);
    const lo = Date.parse("2026-02-28T00:00:00Z");
    const w = weights(t, LADDER, lo, Date.parse("2026-04-01T00:00:00Z"));
    // Whole hours only: the half hours at the ends are rows counted in.
    expect(w.slice(19, w.length - 6).every((x) => x === 1)).toBe(true);
    expect([...w.slice(0, 18), ...w.slice(w.length - 5)].every((x) => x === 0)).toBe(true);
  });
});
