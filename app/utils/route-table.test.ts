import { describe, expect, it } from "vitest";
import { ROUTES, drawerRoutes, pathAvailable, routeFor } from "./route-table";

// A page of a part the firm does not have is unknown and out of the drawer (decision 048).
describe("pages of parts of the product", () => {
  it("takes /demo for an unknown page unless the firm has the demo reset", () => {
    expect(pathAvailable("/demo", [])).toBe(false);
    expect(pathAvailable("/demo", ["ECFX_TRACK", "RETRIEVE"])).toBe(false);
    expect(pathAvailable("/demo", ["DEMO_RESET"])).toBe(true);
    // Pages of no part are there for every firm.
    expect(pathAvailable("/dev", [])).toBe(true);
    expect(pathAvailable("/cases/42", [])).toBe(true);
  });

  it("lists /demo in the drawer only with the demo reset, and only for roles that may open it", () => {
    const paths = (parts: Parameters<typeof drawerRoutes>[1], firmAccess: "FULL" | "READ" | "DENY") =>
      drawerRoutes({ firmAccess, dashboardAccess: "READ" }, parts).map((r) => r.path);
    expect(paths(["DEMO_RESET"], "FULL")).toContain("/demo");
    expect(paths(["DEMO_RESET"], "READ")).toContain("/demo");
    expect(paths(["DEMO_RESET"], "DENY")).not.toContain("/demo");
    expect(paths([], "FULL")).not.toContain("/demo");
    expect(paths([], "FULL")).toEqual(expect.arrayContaining(["/dev", "/dashboard"]));
  });
});

describe("the drawer's firm settings", () => {
  it("list the dictionary for roles that may open the firm's pages, and not for the others", () => {
    const firmLinks = (firmAccess: "FULL" | "READ" | "DENY") =>
      drawerRoutes({ firmAccess }, [])
        .filter((r) => r.drawer === "firm")
        .map((r) => r.path);
    expect(firmLinks("FULL")).toContain("/dictionary");
    expect(firmLinks("READ")).toContain("/dictionary");
    expect(drawerRoutes({ firmAccess: "DENY" }, []).map((r) => r.path)).not.toContain("/dictionary");
  });
});

describe("the route a path belongs to", () => {
  it("is the longest declared path that is the whole path or a prefix of it up to a slash", () => {
    expect(routeFor("/cases")?.path).toBe("/cases");
    expect(routeFor("/cases/42/tracking")?.path).toBe("/cases");
    expect(routeFor("/load-document/7")?.path).toBe("/load-document");
    expect(routeFor("/casesx")).toBeUndefined();
    expect(routeFor("/")).toBeUndefined();
    expect(routeFor("/dev/mail/3")?.path).toBe("/dev");
  });

  it("is one route per path: a drawer entry's page is its own", () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of ROUTES) expect(routeFor(r.path)).toBe(r);
  });
});
