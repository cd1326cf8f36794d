import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";
import { keptResults } from "../../app/common/kept-results";
import type { Range } from "./period-range";

// A stretch of time as the kept-count buckets that cover it exactly (migration 017): the UTC
// buckets of the ladder's sizes (an hour, a day, days doubling to 256, each size dividing the
// next), the largest that fit first, and what is left at each end when a limit falls inside the
// smallest bucket: inside an hour for zones half or a quarter of an hour off UTC, inside a day for
// the counts per matter and timekeeper, which are kept from a day up. Those parts are counted from
// the rows themselves.

export interface Block {
  level: number;
  bucket: number;
}

export interface Tiling {
  blocks: Block[];
  /** The parts shorter than the smallest bucket, at most one at each end. */
  rest: Range[];
}

/** The bucket sizes in milliseconds by level, smallest first; a part of it may be used. */
export type Ladder = { level: number; size: number }[];

const ladders = new WeakMap<Kysely<DB>, Promise<Ladder>>();

/** The bucket sizes the triggers count in, read once from the database that keeps them. */
export function ladderOf(db: Kysely<DB>): Promise<Ladder> {
  let ladder = ladders.get(db);
  if (!ladder) {
    ladder = sql<{ level: number; size_ms: unknown }>`select level, size_ms from dashboard_level order by level`
      .execute(db)
      .then((r) => r.rows.map((row) => ({ level: row.level, size: Number(row.size_ms) })));
    ladder.catch(() => ladders.delete(db));
    ladders.set(db, ladder);
  }
  return ladder;
}

export function tile(range: Range & { from: number }, ladder: Ladder): Tiling {
  // Nothing is recorded before 1970, and buckets are counted from there.
  const from = Math.max(range.from, 0);
  const to = range.to;
  const tiling: Tiling = { blocks: [], rest: [] };
  if (to <= from) return tiling;
  const unit = ladder[0]!.size;
  const end = Math.floor(to / unit) * unit;
  let cursor = Math.min(Math.ceil(from / unit) * unit, to);
  if (cursor > from) tiling.rest.push({ from, to: cursor });
  while (cursor < end) {
    const fits = ladder.findLast((s) => cursor % s.size === 0 && cursor + s.size <= end) ?? ladder[0]!;
    tiling.blocks.push({ level: fits.level, bucket: cursor / fits.size });
    cursor += fits.size;
  }
  if (cursor < to && cursor >= end) tiling.rest.push({ from: cursor, to });
  return tiling;
}

/** A bucket counted in (sign 1) or taken off again (sign -1). */
export interface SignedBlock extends Block {
  sign: 1 | -1;
}

/** A stretch counted from the rows, in (sign 1) or taken off again (sign -1). */
export interface SignedRange {
  from: number;
  to: number;
  sign: 1 | -1;
}

export interface SignedTiling {
  blocks: SignedBlock[];
  rest: SignedRange[];
}

const HOUR = 3_600_000;

/** What a tiling costs to read: a bucket looked up, or an hour of rows counted, each weighed as one. */
const costOf = (t: SignedTiling) => t.blocks.length + t.rest.reduce((sum, r) => sum + (r.to - r.from) / HOUR, 0);

function signed(t: Tiling, sign: 1 | -1): SignedTiling {
  return { blocks: t.blocks.map((b) => ({ ...b, sign })), rest: t.rest.map((r) => ({ from: r.from!, to: r.to, sign })) };
}

/**
 * As `tile`, but an end may move out to the nearer boundary of `grain` (a day), the part that adds
 * beyond the period taken off again, whichever reads less: a period from a New York midnight
 * (05:00 UTC) is read as the day's bucket less five hours' rather than nineteen hours' buckets, or,
 * from a day up, less five hours of rows rather than nineteen. `start` and `end` say which ends may
 * move (an end two pieces share stays where a query gives each bucket one label); without
 * `rowsOff`, no rows are taken off (rows are labelled by their own time, which lies outside).
 */
export function tileNearest(range: Range & { from: number }, ladder: Ladder, grain: number, options: NearestEnds = {}): SignedTiling {
  let kept = keptTilings.get(ladder);
  if (!kept) {
    kept = keptResults<SignedTiling>(256);
    keptTilings.set(ladder, kept);
  }
  const { start = true, end = true, rowsOff = true } = options;
  return kept(`${range.from} ${range.to} ${grain} ${start} ${end} ${rowsOff}`, () => findNearest(range, ladder, grain, { start, end, rowsOff }));
}

interface NearestEnds {
  start?: boolean;
  end?: boolean;
  rowsOff?: boolean;
}

// Every dashboard of a period asks for the same tilings all day long: the last few are kept,
// shared and never changed by a caller.
const keptTilings = new WeakMap<Ladder, (key: string, compute: () => SignedTiling) => SignedTiling>();

function findNearest(
  range: Range & { from: number },
  ladder: Ladder,
  grain: number,
  { start: moveStart, end: moveEnd, rowsOff }: Required<NearestEnds>,
): SignedTiling {
  const from = Math.max(range.from, 0);
  const to = range.to;
  if (to <= from) return { blocks: [], rest: [] };
  const starts = [from];
  const down = Math.floor(from / grain) * grain;
  if (moveStart && down < from) starts.push(down);
  const stops = [to];
  const up = Math.ceil(to / grain) * grain;
  if (moveEnd && up > to) stops.push(up);
  let best: SignedTiling | undefined;
  for (const start of starts) {
    for (const stop of stops) {
      const t = signed(tile({ from: start, to: stop }, ladder), 1);
      for (const [a, b] of [
        [start, from],
        [to, stop],
      ] as const) {
        if (a >= b) continue;
        const off = signed(tile({ from: a, to: b }, ladder), -1);
        t.blocks.push(...off.blocks);
        t.rest.push(...off.rest);
      }
      if (!rowsOff && t.rest.some((r) => r.sign < 0)) continue;
      if (!best || costOf(t) < costOf(best)) best = t;
    }
  }
  return Object.freeze({ blocks: Object.freeze(best!.blocks), rest: Object.freeze(best!.rest) }) as SignedTiling;
}
