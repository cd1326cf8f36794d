import { describe, expect, it } from "vitest";
import { type Ladder, tile } from "../../server/dashboard/tiling";

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
