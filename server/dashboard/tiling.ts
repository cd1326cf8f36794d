import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";
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
