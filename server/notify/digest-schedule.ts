import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";

dayjs.extend(utc);
dayjs.extend(timezone);

// When a daily digest is due, computed from wall-clock time in the group's zone: 07:00 in
// New York is 12:00Z in winter and 11:00Z in summer, and the day of the change is no exception.

/** The calendar date ("YYYY-MM-DD") at this instant in the zone. */
export function localDateAt(now: number, timeZone: string): string {
  return dayjs(now).tz(timeZone).format("YYYY-MM-DD");
}

/**
 * The instant of "HH:mm" on a local date in the zone. A time the clocks skip (02:30 on the
 * spring-forward day) falls an hour later; a time that happens twice counts the first time.
 */
export function localTimeToInstant(localDate: string, time: string, timeZone: string): number {
  return dayjs.tz(`${localDate}T${time}:00`, timeZone).valueOf();
}

/** The local date whose digest is due at `now`, or null while today's time has not come. */
export function dueLocalDate(now: number, timeZone: string, time: string): string | null {
  const today = localDateAt(now, timeZone);
  return now >= localTimeToInstant(today, time, timeZone) ? today : null;
}

/** The local day before `localDate`, as the instants [from, to) it spans in the zone. */
export function previousLocalDay(localDate: string, timeZone: string): { date: string; from: number; to: number } {
  const date = dayjs(localDate).subtract(1, "day").format("YYYY-MM-DD");
  return { date, from: localTimeToInstant(date, "00:00", timeZone), to: localTimeToInstant(localDate, "00:00", timeZone) };
}

/** Whether the zone is one the runtime knows (an unknown zone must not stop other digests). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
