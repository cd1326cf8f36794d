import { describe, expect, it } from "vitest";
import { localHourParts, monthsBetween, offsetSegments, periodRange } from "../../server/dashboard/period-range";

const HOUR = 3_600_000;

describe("the dashboard's periods and local time", () => {
  it("finds each daylight-saving change of a year to the minute", () => {
    const from = Date.parse("2026-01-01T05:00:00Z");
    const to = Date.parse("2027-01-01T05:00:00Z");
    expect(offsetSegments(from, to, "America/New_York")).toEqual([
      { start: from, offset: -5 * HOUR },
      { start: Date.parse("2026-03-08T07:00:00Z"), offset: -4 * HOUR },
      { start: Date.parse("2026-11-01T06:00:00Z"), offset: -5 * HOUR },
    ]);
    // Half an hour changes on Lord Howe Island; India has none.
    expect(offsetSegments(from, to, "Australia/Lord_Howe").map((s) => s.offset / 60_000)).toEqual([660, 630, 660]);
    expect(offsetSegments(from, to, "Asia/Kolkata")).toEqual([{ start: from, offset: 5.5 * HOUR }]);
  });

  it("reads the local month and hour from a local hour number", () => {
    const local = Date.parse("2025-11-29T23:30:00Z");
    expect(localHourParts(Math.floor(local / HOUR))).toEqual({ month: "2025-11", hour: 23 });
  });

  it("lists every month of a period, empty ones included", () => {
    expect(monthsBetween(Date.parse("2025-11-30T05:00:00Z"), Date.parse("2026-02-01T05:00:00Z"), "America/New_York")).toEqual([
      "2025-11",
      "2025-12",
      "2026-01",
    ]);
  });

  it("starts today at the firm's midnight and rolls months back to the day after", () => {
    const now = Date.parse("2026-03-23T02:00:00Z"); // 22 March, 22:00 in New York
    expect(periodRange({ period: "today" }, now, "America/New_York")).toEqual({
      from: Date.parse("2026-03-22T04:00:00Z"),
      to: Date.parse("2026-03-23T04:00:00Z"),
    });
    expect(periodRange({ period: "last_month" }, now, "America/New_York").from).toBe(Date.parse("2026-02-23T05:00:00Z"));
    expect(periodRange({ period: "all_time" }, now, "UTC")).toEqual({ from: null, to: Date.parse("2026-03-24T00:00:00Z") });
    expect(periodRange({ period: "custom", from: "2026-03-01", to: "2026-03-01" }, now, "Asia/Kolkata")).toEqual({
      from: Date.parse("2026-02-28T18:30:00Z"),
      to: Date.parse("2026-03-01T18:30:00Z"),
    });
  });
});
