// The name an export is saved under unless the user gives another: the entity and the day, in
// the firm's time zone, so that a morning's export in New York is not dated tomorrow.
import { keptResults } from "./kept-results";

// Making a DateTimeFormat costs far more than formatting with it, and every list page names an
// export: one per time zone, kept (a zone unknown to Intl gets UTC's).
const dayFormats = keptResults<Intl.DateTimeFormat>(100);

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  return dayFormats(timeZone, () => {
    // en-CA writes dates as YYYY-MM-DD.
    const options = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
    try {
      return new Intl.DateTimeFormat("en-CA", { ...options, timeZone });
    } catch {
      return new Intl.DateTimeFormat("en-CA", { ...options, timeZone: "UTC" });
    }
  });
}

const dayIn = (now: number, timeZone: string): string => dayFormat(timeZone).format(now);

/** `clients-2026-03-08`: the file name without its .csv. */
export function defaultExportName(resourceKey: string, now: number, timeZone: string): string {
  return `${resourceKey}-${dayIn(now, timeZone)}`;
}
