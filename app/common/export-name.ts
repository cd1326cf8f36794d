// The name an export is saved under unless the user gives another: the entity and the day, in
// the firm's time zone, so that a morning's export in New York is not dated tomorrow.

function dayIn(now: number, timeZone: string): string {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: zone });
  } catch {
    zone = "UTC";
  }
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** `clients-2026-03-08`: the file name without its .csv. */
export function defaultExportName(resourceKey: string, now: number, timeZone: string): string {
  return `${resourceKey}-${dayIn(now, timeZone)}`;
}
