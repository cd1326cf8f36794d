// Reads the hearing a CM/ECF docket entry sets: "Motion Hearing set for 3/15/2026 10:00 AM before
// Judge …", "Status Conference set for 1/5/2026 at 09:30 AM", "Jury Trial set for 6/20/2022
// 09:00 AM in Fayetteville", "Confirmation Hearing reset for 3/13/2024 at 1:00 PM". The date and
// time are the court's wall clock; the firm's time zone turns them into an instant. A date without
// a time is a day-long entry.

export interface Hearing {
  /** What is set, as the court named it: "Motion Hearing", "Jury Trial", "Status Conference". */
  event: string;
  /** ISO date (2026-03-15). */
  date: string;
  /** "10:00" (24-hour), or null for a day without a time. */
  time: string | null;
  /** ISO-8601 with the zone's offset, e.g. 2026-03-15T10:00:00-05:00; for a day, its midnight. */
  startAt: string;
  /** An hour after the start (the court gives no length); for a day, the next midnight. */
  endAt: string;
  allDay: boolean;
}

const EVENT_WORDS = "(?:Hearing|Conference|Trial|Status\\s+Report\\s+Hearing|Sentencing|Arraignment|Calendar\\s+Call)";
// Up to four capitalised words before the event word ("Final Pretrial Conference", "Motion Hearing").
const PATTERN = new RegExp(
  String.raw`((?:[A-Z][\w'/-]*\s+){0,4}?${EVENT_WORDS})\s+(?:is\s+)?(?:[Rr]e-?set|[Ss]et|[Ss]cheduled|[Cc]ontinued)\s+(?:for|to)\s+` +
    String.raw`(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?:\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?)?`,
);

/** The zone's offset from UTC, in minutes, at the instant `ms`. */
function offsetMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return Math.round((asUtc - ms) / 60_000);
}

const two = (n: number) => String(n).padStart(2, "0");

/** The wall-clock time in `timeZone` as ISO-8601 with that zone's offset then. */
export function zonedIso(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): string {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the wall time read as UTC, then again at the instant that gives (DST edges).
  let offset = offsetMinutes(wall, timeZone);
  offset = offsetMinutes(wall - offset * 60_000, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const local = new Date(wall);
  return `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:00${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

const validZone = (timeZone: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
};

/** The first hearing the docket text sets, or null when it sets none (or names an impossible date). */
export function readHearing(docketText: string, timeZone: string): Hearing | null {
  const text = docketText.replace(/\s+/g, " ");
  const match = PATTERN.exec(text);
  if (!match) return null;
  const [, rawEvent, m, d, y, h, min, meridiem] = match;
  const zone = validZone(timeZone) ? timeZone : "UTC";
  const year = y!.length === 2 ? 2000 + Number(y) : Number(y);
  const month = Number(m);
  const day = Number(d);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const event = rawEvent!.replace(/\s+/g, " ").trim();
  const date = `${year}-${two(month)}-${two(day)}`;
  if (h === undefined) {
    const next = new Date(Date.UTC(year, month - 1, day + 1));
    return {
      event,
      date,
      time: null,
      startAt: zonedIso(year, month, day, 0, 0, zone),
      endAt: zonedIso(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, zone),
      allDay: true,
    };
  }
  let hour = Number(h);
  const minute = Number(min ?? 0);
  if (hour < 1 || hour > 12 || minute > 59) return null;
  const pm = meridiem!.toUpperCase() === "P";
  if (hour === 12) hour = pm ? 12 : 0;
  else if (pm) hour += 12;
  const end = new Date(Date.UTC(year, month - 1, day, hour + 1, minute));
  return {
    event,
    date,
    time: `${two(hour)}:${two(minute)}`,
    startAt: zonedIso(year, month, day, hour, minute, zone),
    endAt: zonedIso(end.getUTCFullYear(), end.getUTCMonth() + 1, end.getUTCDate(), end.getUTCHours(), end.getUTCMinutes(), zone),
    allDay: false,
  };
}
