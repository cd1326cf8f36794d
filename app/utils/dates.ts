import { keptResults } from "../common/kept-results";
import { useRootData } from "./root-data";

// One way to write a moment in the console: in the firm's time zone, the same on the server and
// in every browser (so a page renders and hydrates alike), with the zone named where there is a time.

export type DateStyle = "date" | "minute" | "second";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string, style: DateStyle): Intl.DateTimeFormat {
  const key = `${timeZone}|${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const time: Intl.DateTimeFormatOptions =
      style === "date"
        ? {}
        : { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short", ...(style === "second" ? { second: "2-digit" } : {}) };
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", ...time });
    formatters.set(key, formatter);
  }
  return formatter;
}

const knownZones = keptResults<boolean>(64);

/** Asked for every date a table shows; making a formatter to find out costs more than the formatting. */
function isTimeZone(value: string): boolean {
  return knownZones(value, () => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: value });
      return true;
    } catch {
      return false;
    }
  });
}

/** What en-US writes: `03/08/2026`, then `, 14:05` or `, 14:05:09` and the zone's name where there is a time. */
const US_MOMENT = /^(\d{2})\/(\d{2})\/(\d{4})(?:, (\d{2}):(\d{2})(?::(\d{2}))? (.+))?$/;

/**
 * `2026-03-08`, `2026-03-08 14:05 EDT` or `2026-03-08 14:05:09 EDT` for a moment (milliseconds,
 * ISO text or Date) in `timeZone`; an unknown zone reads as UTC, text that is no moment comes back as it is.
 */
export function formatMoment(value: number | string | Date, timeZone: string, style: DateStyle = "minute"): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const formatter = formatterFor(isTimeZone(timeZone) ? timeZone : "UTC", style);
  // A table writes a hundred moments a page: rearranging the formatted text costs a third of
  // asking for its parts. Any other shape (another engine's habits) goes by the parts.
  const us = US_MOMENT.exec(formatter.format(date));
  const parts = us
    ? { month: us[1], day: us[2], year: us[3], hour: us[4], minute: us[5], second: us[6], timeZoneName: us[7] }
    : Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  if (style === "date") return day;
  const seconds = style === "second" ? `:${parts.second}` : "";
  return `${day} ${parts.hour}:${parts.minute}${seconds} ${parts.timeZoneName}`;
}

/** The firm's time zone as the root loader read it; UTC before anyone is signed in. */
export function useFirmTimeZone(): string {
  return useRootData()?.branding?.time_zone ?? "UTC";
}

/** formatMoment in the firm's time zone, for components. */
export function useFormatMoment(): (value: number | string | Date, style?: DateStyle) => string {
  const timeZone = useFirmTimeZone();
  return (value, style) => formatMoment(value, timeZone, style);
}
