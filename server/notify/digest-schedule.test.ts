import { describe, expect, it } from "vitest";
import { dueLocalDate, localDateAt, localTimeToInstant, previousLocalDay } from "./digest-schedule";

const NY = "America/New_York";
const at = (iso: string) => Date.parse(iso);

describe("digest due time", () => {
  it("keeps 07:00 local across the US spring change (12:00Z, then 11:00Z)", () => {
    expect(new Date(localTimeToInstant("2026-03-07", "07:00", NY)).toISOString()).toBe("2026-03-07T12:00:00.000Z");
    expect(new Date(localTimeToInstant("2026-03-08", "07:00", NY)).toISOString()).toBe("2026-03-08T11:00:00.000Z");
    expect(new Date(localTimeToInstant("2026-03-09", "07:00", NY)).toISOString()).toBe("2026-03-09T11:00:00.000Z");
  });

  it("keeps 07:00 local across the US autumn change (11:00Z, then 12:00Z)", () => {
    expect(new Date(localTimeToInstant("2026-10-31", "07:00", NY)).toISOString()).toBe("2026-10-31T11:00:00.000Z");
    expect(new Date(localTimeToInstant("2026-11-01", "07:00", NY)).toISOString()).toBe("2026-11-01T12:00:00.000Z");
    expect(new Date(localTimeToInstant("2026-11-02", "07:00", NY)).toISOString()).toBe("2026-11-02T12:00:00.000Z");
  });

  it("is due from the local time on, never before", () => {
    expect(dueLocalDate(at("2026-03-08T10:59:59Z"), NY, "07:00")).toBeNull();
    expect(dueLocalDate(at("2026-03-08T11:00:00Z"), NY, "07:00")).toBe("2026-03-08");
    expect(dueLocalDate(at("2026-03-09T03:00:00Z"), NY, "07:00")).toBe("2026-03-08");
    expect(dueLocalDate(at("2026-11-01T11:30:00Z"), NY, "07:00")).toBeNull();
    expect(dueLocalDate(at("2026-11-01T12:00:00Z"), NY, "07:00")).toBe("2026-11-01");
  });

  it("uses the zone's calendar date, not UTC's", () => {
    expect(localDateAt(at("2026-03-08T03:00:00Z"), NY)).toBe("2026-03-07");
    expect(localDateAt(at("2026-03-08T03:00:00Z"), "Asia/Tokyo")).toBe("2026-03-08");
    expect(dueLocalDate(at("2026-03-07T23:30:00Z"), "Asia/Tokyo", "08:00")).toBe("2026-03-08");
  });

  it("spans a 23-hour previous day after the spring change", () => {
    const day = previousLocalDay("2026-03-09", NY);
    expect(day.date).toBe("2026-03-08");
    expect(day.to - day.from).toBe(23 * 3600_000);
    expect(new Date(day.from).toISOString()).toBe("2026-03-08T05:00:00.000Z");
  });
});
