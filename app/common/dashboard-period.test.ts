import { describe, expect, it } from "vitest";
import { formPeriod } from "./dashboard-period";

const read = (query: string) => formPeriod(new URLSearchParams(query));

describe("the dashboard form's period", () => {
  it("is the custom period once dates are given, whatever the list says", () => {
    expect(read("period=last_month&from=2026-01-01&to=2026-01-31")).toEqual({ period: "custom", from: "2026-01-01", to: "2026-01-31" });
    expect(read("shown=today&period=today&from=2026-01-01&to=")).toEqual({ period: "custom", from: "2026-01-01", to: "" });
    expect(read("from=2026-01-01&to=2026-01-31")).toEqual({ period: "custom", from: "2026-01-01", to: "2026-01-31" });
  });

  it("is the list's period when another is chosen on a custom page, its old dates dropped", () => {
    expect(read("shown=custom&period=today&from=2026-01-01&to=2026-01-31")).toEqual({ period: "today", from: "", to: "" });
    expect(read("shown=custom&period=custom&from=2026-02-01&to=2026-02-28")).toEqual({ period: "custom", from: "2026-02-01", to: "2026-02-28" });
  });

  it("is the list's period, or the default, without dates", () => {
    expect(read("period=today&from=&to=")).toEqual({ period: "today", from: "", to: "" });
    expect(read("")).toEqual({ period: "last_month", from: "", to: "" });
  });
});
