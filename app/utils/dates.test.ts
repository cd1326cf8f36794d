import { describe, expect, it, vi } from "vitest";
import { formatMoment } from "./dates";

// Every moment the console shows is written in the firm's time zone, whatever the machine's.
describe("formatMoment", () => {
  const noonUtc = Date.parse("2026-01-15T12:00:00Z");

  it("writes the same moment in each firm's own time zone", () => {
    expect(formatMoment(noonUtc, "America/New_York")).toBe("2026-01-15 07:00 EST");
    expect(formatMoment(noonUtc, "America/Los_Angeles")).toBe("2026-01-15 04:00 PST");
    expect(formatMoment(noonUtc, "UTC")).toBe("2026-01-15 12:00 UTC");
    expect(formatMoment(noonUtc, "Asia/Tokyo", "second")).toBe("2026-01-15 21:00:00 GMT+9");
  });

  it("puts a late-evening moment on the firm's calendar day, not UTC's", () => {
    const evening = Date.parse("2026-03-01T03:30:00Z");
    expect(formatMoment(evening, "America/Chicago", "date")).toBe("2026-02-28");
    expect(formatMoment(evening, "Europe/Berlin", "date")).toBe("2026-03-01");
  });

  it("follows daylight saving time across the spring change in New York", () => {
    // 8 March 2026, 02:00 EST becomes 03:00 EDT.
    expect(formatMoment(Date.parse("2026-03-08T06:59:00Z"), "America/New_York")).toBe("2026-03-08 01:59 EST");
    expect(formatMoment(Date.parse("2026-03-08T07:00:00Z"), "America/New_York")).toBe("2026-03-08 03:00 EDT");
  });

  it("tells the two 01:30s of the autumn change apart", () => {
    // 1 November 2026, 02:00 EDT becomes 01:00 EST: 01:30 happens twice.
    expect(formatMoment(Date.parse("2026-11-01T05:30:00Z"), "America/New_York")).toBe("2026-11-01 01:30 EDT");
    expect(formatMoment(Date.parse("2026-11-01T06:30:00Z"), "America/New_York")).toBe("2026-11-01 01:30 EST");
  });

  it("uses 24-hour time, midnight as 00", () => {
    expect(formatMoment(Date.parse("2026-06-01T04:00:05Z"), "America/New_York", "second")).toBe("2026-06-01 00:00:05 EDT");
  });

  it("takes milliseconds, ISO text and dates alike", () => {
    expect(formatMoment("2026-01-15T12:00:00Z", "UTC", "date")).toBe("2026-01-15");
    expect(formatMoment(new Date(noonUtc), "UTC", "date")).toBe("2026-01-15");
  });

  it("reads an unknown time zone as UTC and leaves text that is no moment as it is", () => {
    expect(formatMoment(noonUtc, "Mars/Olympus_Mons")).toBe("2026-01-15 12:00 UTC");
    expect(formatMoment("not a date", "UTC")).toBe("not a date");
  });

  it("reads the parts where an engine writes en-US otherwise", () => {
    // `format` is a getter handing out a bound function.
    const prototype = Intl.DateTimeFormat.prototype as unknown as { format: unknown };
    const format = vi.spyOn(prototype, "format", "get").mockReturnValue(() => "15.1.2026, 7:00 Uhr");
    try {
      expect(formatMoment(noonUtc, "America/New_York")).toBe("2026-01-15 07:00 EST");
      expect(formatMoment(noonUtc, "Asia/Tokyo", "date")).toBe("2026-01-15");
    } finally {
      format.mockRestore();
    }
  });
});
