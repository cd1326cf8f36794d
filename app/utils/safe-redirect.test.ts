import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site relative paths with their query", () => {
    expect(safeRedirect("/cases?sort=-case_number&page=3")).toBe("/cases?sort=-case_number&page=3");
  });

  it.each(["//evil.test/", "/\\evil.test", "https://evil.test/", "javascript:alert(1)", "cases", "", null, undefined, "/ok\nx"])("refuses %j", (target) => {
    expect(safeRedirect(target, "/dashboard")).toBe("/dashboard");
  });

  it("percent-encodes characters a Location header cannot carry", () => {
    expect(safeRedirect("/cases?q=Peña €")).toBe("/cases?q=Pe%C3%B1a %E2%82%AC");
    expect(safeRedirect("/cases?q=\ud800", "/dashboard")).toBe("/dashboard");
  });

  it("never sends a signed-in user back to the sign-in page", () => {
    expect(safeRedirect("/login?from=/x")).toBe("/dashboard");
  });
});
