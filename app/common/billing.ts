// Billing's words shared by the console and the API (spec §3 enumerations): the service kinds a
// firm subscribes to, the time units a price is counted in, the one currency. Amounts are integer
// cents everywhere (decision 111).

export const SERVICE_KINDS = ["FAI_TITLE_EXTRACTION", "FSX_WEB_SERVICES", "ECFX_TRACK"] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

export const TIME_UNITS = ["SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const CURRENCIES = ["USD"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const INVOICE_KINDS = ["INVOICE", "CREDIT_NOTE"] as const;
export const INVOICE_STATUSES = ["OPEN", "PAID", "CREDITED", "ISSUED"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const isServiceKind = (v: unknown): v is ServiceKind => typeof v === "string" && (SERVICE_KINDS as readonly string[]).includes(v);
export const isTimeUnit = (v: unknown): v is TimeUnit => typeof v === "string" && (TIME_UNITS as readonly string[]).includes(v);

/** "$1,234.56", "-$0.10": cents as the invoice prints them, with no floating point on the way. */
export function formatCents(cents: number, currency: string = "USD"): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const symbol = currency === "USD" ? "$" : `${currency} `;
  return `${sign}${symbol}${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** "2026-10": a calendar month in UTC, the invoice's period. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Where the month starts and ends (exclusive), milliseconds, UTC. */
export function monthBounds(month: string): { start: number; end: number } {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new Error(`not a month: ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { start: Date.UTC(year, index, 1), end: Date.UTC(year, index + 1, 1) };
}

export const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

/** The month before the one `month` names. */
export function previousMonth(month: string): string {
  const { start } = monthBounds(month);
  return monthOf(start - 1);
}
