import { describe, expect, it } from "vitest";
import { handoverKey, pageHandover } from "./page-handover.server";

describe("a document's page handed to the browser's follow-up request", () => {
  it("is taken once, with the document's token, by the same session, for the same page only", () => {
    const pages = pageHandover<string>(10_000, 10);
    pages.handOver(handoverKey("token", "session-a", "cases", "max=50"), "page");
    expect(pages.take(handoverKey("other", "session-a", "cases", "max=50"))).toBeUndefined();
    expect(pages.take(handoverKey("token", "session-b", "cases", "max=50"))).toBeUndefined();
    expect(pages.take(handoverKey("token", "session-a", "cases", "max=25"))).toBeUndefined();
    expect(pages.take(handoverKey("token", "session-a", "matters", "max=50"))).toBeUndefined();
    expect(pages.take(handoverKey("token", "session-a", "cases", "max=50"))).toBe("page");
    expect(pages.take(handoverKey("token", "session-a", "cases", "max=50"))).toBeUndefined();
  });

  it("is not taken once it expired", () => {
    let clock = 0;
    const pages = pageHandover<string>(1_000, 10, () => clock);
    pages.handOver("k", "page");
    clock = 1_001;
    expect(pages.take("k")).toBeUndefined();
  });

  it("keeps at most its limit, dropping the oldest, and drops what expired", () => {
    let clock = 0;
    const pages = pageHandover<number>(1_000, 3, () => clock);
    for (const n of [1, 2, 3, 4]) pages.handOver(`k${n}`, n);
    expect(pages.take("k1")).toBeUndefined();
    expect([pages.take("k2"), pages.take("k3"), pages.take("k4")]).toEqual([2, 3, 4]);

    pages.handOver("early", 5);
    clock = 1_001;
    pages.handOver("late", 6);
    clock = 0;
    // Gone when "late" came, though the clock now says it would still be good.
    expect(pages.take("early")).toBeUndefined();
    expect(pages.take("late")).toBe(6);
  });
});
