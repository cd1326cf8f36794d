import { describe, expect, it } from "vitest";
import { formatCents, monthBounds, previousMonth } from "../../app/common/billing";
import { proratedCents, shareOf, unitMillis } from "./amounts";

// Decision 111's money rules: integer cents, a share of a time unit rounded half up once.

describe("billing amounts", () => {
  it("rounds a share half up in integer arithmetic, beyond what a double holds exactly", () => {
    expect(shareOf(2500, 10, 30)).toBe(833);
    expect(shareOf(2500, 20, 30)).toBe(1667);
    expect(shareOf(1, 1, 2)).toBe(1);
    expect(shareOf(999_999_999, 86_400_000 * 30, 86_400_000 * 31)).toBe(967_741_935);
    expect(() => shareOf(0.5, 1, 2)).toThrow("integers");
  });

  it("counts a month as that month and a year as that year", () => {
    const feb = monthBounds("2028-02");
    expect(unitMillis("MONTH", feb.start, feb.end)).toBe(29 * 86_400_000);
    expect(unitMillis("YEAR", feb.start, feb.end)).toBe(366 * 86_400_000);
    expect(unitMillis("WEEK", feb.start, feb.end)).toBe(7 * 86_400_000);
  });

  it("charges the part of the month a service was on, per its time unit", () => {
    const { start, end } = monthBounds("2026-09");
    const day = 86_400_000;
    expect(proratedCents(5000, "MONTH", start + 15 * day, null, start, end)).toEqual({ cents: 2500, millis: 15 * day });
    expect(proratedCents(100, "DAY", start - 5 * day, start + 3 * day, start, end)).toEqual({ cents: 300, millis: 3 * day });
    expect(proratedCents(36_500, "YEAR", start, null, start, end)).toEqual({ cents: 3000, millis: 30 * day });
    expect(proratedCents(1, "SECOND", start, start + 90_000, start, end).cents).toBe(90);
    expect(proratedCents(5000, "MONTH", end, null, start, end)).toEqual({ cents: 0, millis: 0 });
  });

  it("prints cents without floating point", () => {
    expect(formatCents(123_456_789)).toBe("$1,234,567.89");
    expect(formatCents(-10)).toBe("-$0.10");
    expect(formatCents(0)).toBe("$0.00");
    expect(previousMonth("2026-01")).toBe("2025-12");
  });
});
