import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import type { PeriodQuery } from "../../app/common/dashboard-period";
import { keptResults } from "../../app/common/kept-results";

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

/**
 * The instant the local date ("YYYY-MM-DD") begins in the zone: its midnight read as UTC, less
 * the offset then, checked once more in case the offset changes in between (as dayjs does it).
 * A midnight the zone skips begins the day at the end of the gap; one that comes twice (clocks
 * going back at 1:00, as in Havana) begins it at the first.
 */
function startOfDay(date: string, zone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const o0 = offsetAt(wall, zone);
  const guess = wall - o0;
  const o2 = offsetAt(guess, zone);
  if (o0 === o2) return guess;
  const second = guess - (o2 - o0);
  const o3 = offsetAt(second, zone);
  return o2 === o3 ? second : wall - Math.min(o2, o3);
}
const dayAfter = (date: string) => dayjs.utc(date).add(1, "day").format("YYYY-MM-DD");

const MONTHS_BACK = { last_month: 1, "3_months": 3, "6_months": 6, last_year: 12 } as const;

export function periodRange(q: PeriodQuery, now: number, zone: string): Range {
  const today = new Date(now + offsetAt(now, zone)).toISOString().slice(0, 10);
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

const offsetFormats = keptResults<Intl.DateTimeFormat>(64);

/**
 * The zone's offset from UTC at an instant, in milliseconds. Read from the zone's name in a
 * kept formatter ("GMT-04:00"): a year's worth of days is asked for on every dashboard, and
 * building a date in the zone each time costs a hundred times more.
 */
export function offsetAt(ms: number, zone: string): number {
  const format = offsetFormats(zone, () => new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }));
  const name = format.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(name);
  if (!match) return 0;
  const [, sign, hours, minutes, seconds] = match;
  return (sign === "-" ? -1 : 1) * ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds ?? 0)) * 1000;
}

/** From `start` on (until the next segment's start), local time is UTC plus `offset`. */
export interface OffsetSegment {
  start: number;
  offset: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;

// Every dashboard of a period asks for the same segments all day long (a year is 366 offsets to
// read), so the last few answers are kept; they are shared, frozen, never changed by a caller.
const keptSegments = keptResults<OffsetSegment[]>(64);

/**
 * The offsets the zone uses between two instants: one segment per daylight-saving change.
 * Checked a day at a time, and each change found to its minute by halving.
 */
export function offsetSegments(from: number, to: number, zone: string): OffsetSegment[] {
  return keptSegments(`${zone} ${from} ${to}`, () => Object.freeze(findSegments(from, to, zone)) as OffsetSegment[]);
}

function findSegments(from: number, to: number, zone: string): OffsetSegment[] {
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

/** The instant a local month ("YYYY-MM") begins. */
export function monthStart(month: string, zone: string): number {
  return startOfDay(`${month}-01`, zone);
}

/** The local calendar month ("YYYY-MM") of an instant. */
function localMonth(ms: number, zone: string): string {
  return new Date(ms + offsetAt(ms, zone)).toISOString().slice(0, 7);
}

function nextMonth(month: string): string {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`;
}

/** Every local month from the month of `from` to the month of `to` (exclusive end), in order. */
export function monthsBetween(from: number, to: number, zone: string): string[] {
  const months: string[] = [];
  const last = localMonth(to - 1, zone);
  for (let cursor = localMonth(from, zone); cursor <= last; cursor = nextMonth(cursor)) months.push(cursor);
  return months;
}
