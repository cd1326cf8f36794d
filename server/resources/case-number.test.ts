import { describe, expect, it } from "vitest";
import { normaliseCaseNumber } from "./case-number";

describe("normaliseCaseNumber", () => {
  it.each([
    ["1:20-cv-00572-WS-MU", "20-cv-572"],
    ["1:20-CV-572", "20-cv-572"],
    ["20-cv-572", "20-cv-572"],
    ["2:19-cr-00123-JAD-1", "19-cr-123"],
    ["5:21-bk-00329", "21-bk-329"],
    ["23-14130", "23-14130"],
    ["22-011299", "22-11299"],
    [" 1:24-cv-01234 ", "24-cv-1234"],
  ])("%s → %s", (raw, expected) => {
    expect(normaliseCaseNumber(raw)).toBe(expected);
  });

  it("leaves numbers of other shapes as they are, lower-cased", () => {
    expect(normaliseCaseNumber("MDL No. 2741")).toBe("mdlno.2741");
  });
});
