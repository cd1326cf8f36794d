import { describe, expect, it } from "vitest";
import { defaultExportName } from "./export-name";

describe("the default export name", () => {
  // 2026-03-08 23:30 UTC: already the 9th east of Greenwich, still the 8th in New York.
  const lateEvening = Date.UTC(2026, 2, 8, 23, 30);

  it("dates the file on the firm's day, not the server's", () => {
    expect(defaultExportName("clients", lateEvening, "UTC")).toBe("clients-2026-03-08");
    expect(defaultExportName("clients", lateEvening, "America/New_York")).toBe("clients-2026-03-08");
    expect(defaultExportName("matters", lateEvening, "Europe/Berlin")).toBe("matters-2026-03-09");
  });

  it("falls back to UTC for a zone it does not know", () => {
    expect(defaultExportName("cases", lateEvening, "Mars/Olympus")).toBe("cases-2026-03-08");
  });
});
