import { describe, expect, it } from "vitest";
import { attachmentHeader, safeFilename } from "./export-filename";

describe("export file names", () => {
  it("keeps ordinary names and drops a .csv the user typed", () => {
    expect(safeFilename("open cases 2026")).toBe("open cases 2026");
    expect(safeFilename("  clients.CSV ")).toBe("clients");
  });

  it("removes what a header or a disk cannot hold", () => {
    expect(safeFilename('a/b\\c:d*e?f"g<h>i|j')).toBe("abcdefghij");
    expect(safeFilename("x\r\nSet-Cookie: y")).toBe("xSet-Cookie y");
    expect(safeFilename("..")).toBe("..");
  });

  it("is empty when nothing usable is given, which the export refuses", () => {
    expect(safeFilename(null)).toBe("");
    expect(safeFilename("   ")).toBe("");
    expect(safeFilename("\u0000\u0007")).toBe("");
    expect(safeFilename(".csv")).toBe("");
  });

  it("limits the length", () => {
    expect(safeFilename("a".repeat(300))).toHaveLength(100);
  });

  it("names the attachment in ASCII and in UTF-8", () => {
    expect(attachmentHeader("Müller cases")).toBe(`attachment; filename="M_ller cases.csv"; filename*=UTF-8''M%C3%BCller%20cases.csv`);
  });
});
