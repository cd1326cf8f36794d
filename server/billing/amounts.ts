import type { TimeUnit } from "../../app/common/billing";

// Money rules of decision 111: amounts are integer cents, a price counted per time unit is charged
// for the share of the unit a service was on, and a share is rounded half up to the cent once,
// in integer arithmetic (BigInt), never through floating point.

const FIXED: Partial<Record<TimeUnit, number>> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 7 * 86_400_000,
};

/** Length of one unit for a span inside [monthStart, monthEnd): a month is that month, a year that year. */
export function unitMillis(unit: TimeUnit, monthStart: number, monthEnd: number): number {
  const fixed = FIXED[unit];
  if (fixed) return fixed;
  if (unit === "MONTH") return monthEnd - monthStart;
  const year = new Date(monthStart).getUTCFullYear();
  return Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1);
}

/** `cents × numerator / denominator`, rounded half up; all integers. */
export function shareOf(cents: number, numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new Error("amounts are integers");
  }
  const product = BigInt(cents) * BigInt(numerator);
  const d = BigInt(denominator);
  const whole = product / d;
  const rest = product % d;
  return Number(rest * 2n >= d ? whole + 1n : whole);
}

/** What a price per unit costs for the part of [from, to) inside the month. */
export function proratedCents(
  cents: number,
  unit: TimeUnit,
  from: number,
  to: number | null,
  monthStart: number,
  monthEnd: number,
): { cents: number; millis: number } {
  const start = Math.max(from, monthStart);
  const end = Math.min(to ?? monthEnd, monthEnd);
  if (end <= start) return { cents: 0, millis: 0 };
  return { cents: shareOf(cents, end - start, unitMillis(unit, monthStart, monthEnd)), millis: end - start };
}
