import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import type { PeriodQuery } from "../../app/common/dashboard-period";

dayjs.extend(utc);
dayjs.extend(timezone);

// A dashboard period as instants in the firm's time zone: "today" is the firm's today, a month
// starts at the firm's midnight. Rolling periods end with today and begin on the same calendar
// day 1, 3, 6 or 12 months earlier (the day after it, so "last month" on 23 March is 24 Feb–23 Mar).

export interface Range {
  /** First instant inside, or null for all time. */
  from: number | null;
  /** First instant after the period. */
  to: number;
}

const startOfDay = (date: string, zone: string) => dayjs.tz(`${date}T00:00:00`, zone).valueOf();
const dayAfter = (date: string) => dayjs.utc(date).add(1, "day").format("YYYY-MM-DD");

const MONTHS_BACK = { last_month: 1, "3_months": 3, "6_months": 6, last_year: 12 } as const;

export function periodRange(q: PeriodQuery, now: number, zone: string): Range {
  const today = dayjs(now).tz(zone).format("YYYY-MM-DD");
  const endOfToday = startOfDay(dayAfter(today), zone);
  const back = (days: number) => dayjs.utc(today).subtract(days, "day").format("YYYY-MM-DD");
  switch (q.period) {
    case "all_time":
      return { from: null, to: endOfToday };
    case "today":
      return { from: startOfDay(today, zone), to: endOfToday };
    case "yesterday":
      return { from: startOfDay(back(1), zone), to: startOfDay(today, zone) };
    case "last_7_days":
      return { from: startOfDay(back(6), zone), to: endOfToday };
    case "custom":
      return { from: startOfDay(q.from, zone), to: startOfDay(dayAfter(q.to), zone) };
    default: {
      const first = dayjs.utc(today).subtract(MONTHS_BACK[q.period], "month").add(1, "day").format("YYYY-MM-DD");
      return { from: startOfDay(first, zone), to: endOfToday };
    }
  }
}

/** The zone's offset from UTC at an instant, in milliseconds. */
export function offsetAt(ms: number, zone: string): number {
  return dayjs(ms).tz(zone).utcOffset() * 60_000;
}

/** From `start` on (until the next segment's start), local time is UTC plus `offset`. */
export interface OffsetSegment {
  start: number;
  offset: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The offsets the zone uses between two instants: one segment per daylight-saving change.
 * Checked a day at a time, and each change found to its minute by halving.
 */
export function offsetSegments(from: number, to: number, zone: string): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ start: from, offset: offsetAt(from, zone) }];
  for (let day = from; day < to; day += DAY) {
    const next = Math.min(day + DAY, to);
    const current = segments[segments.length - 1]!.offset;
    if (offsetAt(next, zone) === current) continue;
    // Zones change on whole minutes: halve over minutes, so the start found is the change itself.
    let low = Math.floor(day / MINUTE);
    let high = Math.ceil(next / MINUTE);
    while (high - low > 1) {
      const mid = low + Math.floor((high - low) / 2);
      if (offsetAt(mid * MINUTE, zone) === current) low = mid;
      else high = mid;
    }
    segments.push({ start: high * MINUTE, offset: offsetAt(high * MINUTE, zone) });
  }
  return segments;
}

/** The local calendar month ("YYYY-MM") and hour of day of a local hour number (hours since the local epoch). */
export function localHourParts(localHour: number): { month: string; hour: number } {
  const d = new Date(localHour * 3_600_000);
  return { month: d.toISOString().slice(0, 7), hour: d.getUTCHours() };
}

/** Every local month from the month of `from` to the month of `to` (exclusive end), in order. */
export function monthsBetween(from: number, to: number, zone: string): string[] {
  const months: string[] = [];
  let cursor = dayjs(from).tz(zone).startOf("month").format("YYYY-MM");
  const last = dayjs(to - 1)
    .tz(zone)
    .format("YYYY-MM");
  while (cursor <= last) {
    months.push(cursor);
    cursor = dayjs.utc(`${cursor}-01`).add(1, "month").format("YYYY-MM");
  }
  return months;
}
