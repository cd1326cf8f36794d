import { describe, expect, it } from "vitest";
import {
  type TableSpec,
  apiExportQuery,
  apiSearchQuery,
  changeState,
  parseTableUrl,
  quickFiltersOf,
  sortDirection,
  tableHref,
  tableSearchParams,
  toggledSort,
} from "./table-url";

const spec: TableSpec = {
  defaultSort: "-created_at",
  defaultSize: 25,
  sortable: ["name", "case_number", "status", "created_at"],
  filters: {
    name: { kind: "text" },
    status: { kind: "select", options: ["open", "closed", "stayed"] },
    matter_id: { kind: "reference" },
    created_at: { kind: "dateRange" },
  },
  recent: true,
  notMapped: true,
};

const parse = (query: string, s: TableSpec = spec) => parseTableUrl(new URLSearchParams(query), s);

describe("table state in the URL", () => {
  it("reads every part of a full URL", () => {
    const { state, errors, needsCanonical } = parse(
      "q=smith&sort=-name,status&page=3&size=50&filter.status=open&filter.created_at=2026-01-01..2026-01-31&filter.matter_id=m1,m2&quick=recent",
    );
    expect(state).toEqual({
      q: "smith",
      sort: "-name,status",
      page: 3,
      size: 50,
      filters: { status: "open", created_at: "2026-01-01..2026-01-31", matter_id: "m1,m2" },
      quick: "recent",
      after: "",
      before: "",
    });
    expect(errors).toEqual({});
    expect(needsCanonical).toBe(false);
  });

  it("falls back to the defaults for missing or unusable values", () => {
    const { state } = parse("page=-2&size=33&sort=password_hash&quick=everything&filter.secret=x&filter.status=deleted");
    expect(state).toEqual({ q: "", sort: "-created_at", page: 1, size: 25, filters: {}, quick: "all", after: "", before: "" });
  });

  it("offers the page sizes 10, 25, 50 and 100 only", () => {
    expect([10, 25, 50, 100, 20, 1000].map((size) => parse(`size=${size}`).state.size)).toEqual([10, 25, 50, 100, 25, 25]);
  });

  it("drops Recent and Not Mapped when the entity has no such notion", () => {
    expect(parse("quick=notMapped").state.quick).toBe("notMapped");
    expect(parse("quick=notMapped", { ...spec, notMapped: false }).state.quick).toBe("all");
    expect(parse("quick=recent", { ...spec, recent: false }).state.quick).toBe("all");
    expect(quickFiltersOf(spec)).toEqual(["all", "recent", "notMapped"]);
    expect(quickFiltersOf({ ...spec, recent: false, notMapped: false })).toEqual(["all"]);
  });

  it("keeps only sortable fields, each once", () => {
    expect(parse("sort=name,-name,bogus,-status").state.sort).toBe("name,-status");
  });

  it("joins a date range sent as two inputs and asks for the canonical URL", () => {
    const parsed = parse("q=&filter.name=&filter.created_at.from=2026-02-10&filter.created_at.to=2026-02-01&sort=");
    expect(parsed.state.filters).toEqual({ created_at: "2026-02-01..2026-02-10" });
    expect(parsed.needsCanonical).toBe(true);
    expect(tableSearchParams(parsed.state, spec).toString()).toBe("filter.created_at=2026-02-01..2026-02-10");
  });

  it("answers 'Select two dates' when one date of a range is missing, and keeps what was typed", () => {
    const form = parse("filter.created_at.from=2026-02-10&filter.created_at.to=");
    expect(form.errors).toEqual({ created_at: "errors:selectTwoDates" });
    expect(form.partialRanges).toEqual({ created_at: { from: "2026-02-10", to: "" } });
    expect(form.state.filters).toEqual({});
    expect(form.needsCanonical).toBe(false);
    expect(parse("filter.created_at=2026-02-10..").errors).toEqual({ created_at: "errors:selectTwoDates" });
    expect(parse("filter.created_at=2026-02-30..2026-03-01").errors).toEqual({ created_at: "errors:invalidDate" });
  });

  it("writes the shortest URL: defaults left out, keys in a fixed order", () => {
    const { state } = parse("size=25&page=1&sort=-created_at&quick=all");
    expect(tableSearchParams(state, spec).toString()).toBe("");
    const busy = changeState(state, { q: "a b", quick: "notMapped", filters: { status: "closed" }, sort: "name", size: 100 });
    expect(tableSearchParams({ ...busy, page: 2 }, spec).toString()).toBe("q=a+b&quick=notMapped&filter.status=closed&sort=name&page=2&size=100");
  });

  it("survives a round trip unchanged", () => {
    const query = "q=x&quick=recent&filter.name=Doe&filter.status=open%2Cclosed&filter.created_at=2026-01-01..2026-01-31&sort=name&page=4&size=10";
    const once = tableSearchParams(parse(query).state, spec).toString();
    expect(tableSearchParams(parse(once).state, spec).toString()).toBe(once);
    expect(once).toBe(query);
  });

  it("keeps query keys that belong to other parts of the page", () => {
    const { state } = parse("page=2&imported=12");
    expect(tableHref("/cases", changeState(state, { quick: "recent" }), spec, new URLSearchParams("page=2&imported=12&filter.name="))).toBe(
      "/cases?quick=recent&imported=12",
    );
    expect(tableHref("/cases", changeState(state, {}), spec)).toBe("/cases");
  });

  it("goes back to page 1 on any change but paging", () => {
    const { state } = parse("page=5");
    expect(changeState(state, { q: "x" }).page).toBe(1);
    expect(changeState(state, { size: 50 }).page).toBe(1);
    expect(changeState(state, { page: 6 }).page).toBe(6);
  });

  it("toggles a header's sort ascending, then descending", () => {
    expect(toggledSort("-created_at", "name")).toBe("name");
    expect(toggledSort("name", "name")).toBe("-name");
    expect(toggledSort("-name", "name")).toBe("name");
    expect(sortDirection("-created_at", "created_at")).toBe("desc");
    expect(sortDirection("name,-status", "status")).toBe("desc");
    expect(sortDirection("name", "status")).toBeNull();
  });

  it("becomes the API's search and export queries", () => {
    const { state } = parse("q=smith&sort=name&page=3&size=50&filter.status=open&filter.created_at=2026-01-01..2026-01-31&quick=recent");
    expect(Object.fromEntries(apiSearchQuery(state))).toEqual({
      max: "50",
      offset: "100",
      freeText: "smith",
      sort: "name",
      "filter.status": "open",
      "filter.created_at": "2026-01-01..2026-01-31",
      quick: "recent",
    });
    const exported = Object.fromEntries(apiExportQuery(state));
    expect(exported).not.toHaveProperty("max");
    expect(exported).not.toHaveProperty("offset");
    expect(exported).toMatchObject({ freeText: "smith", sort: "name", "filter.status": "open", quick: "recent" });
    expect(Object.fromEntries(apiSearchQuery(parse("").state))).toEqual({ max: "25", offset: "0", sort: "-created_at" });
  });
});
