import { type AgnosticRouteObject, matchPath, matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";

// patches/@remix-run+router: the server matches the same route arrays on every request, so their
// ranked branches are kept per array and each path pattern is compiled once.
const tree = (): AgnosticRouteObject[] => [
  {
    id: "root",
    path: "",
    children: [
      {
        id: "app",
        children: [
          { id: "resource-index", path: ":resource", index: false },
          { id: "resource-new", path: ":resource/new" },
          { id: "record", path: ":resource/:id/:tab?" },
          { id: "dashboard", path: "dashboard" },
        ],
      },
      { id: "login", path: "login", caseSensitive: true },
      { id: "files", path: "files/*" },
    ],
  },
];

const ids = (routes: AgnosticRouteObject[], path: string) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;

describe("route matching with kept branches", () => {
  it("reads a routes array once however often it is matched", () => {
    let reads = 0;
    const routes = new Proxy(tree(), {
      get(target, name, receiver) {
        if (name === "forEach") reads++;
        return Reflect.get(target, name, receiver);
      },
    });
    expect(ids(routes, "/dashboard")).toEqual(["root", "app", "dashboard"]);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect(ids(routes, "/cases/new")).toEqual(["root", "app", "resource-new"]);
    expect(reads).toBe(afterFirst);
  });

  it("matches each array by its own routes, ranks and patterns", () => {
    const first = tree();
    expect(ids(first, "/dashboard")).toEqual(["root", "app", "dashboard"]);
    expect(ids(first, "/cases/42")).toEqual(["root", "app", "record"]);
    expect(matchRoutes(first, "/cases/42/history")?.at(-1)?.params).toMatchObject({ resource: "cases", id: "42", tab: "history" });
    expect(ids(first, "/files/a/b/c.pdf")).toEqual(["root", "files"]);
    expect(ids(first, "/LOGIN")).toEqual(["root", "app", "resource-index"]);
    expect(ids(first, "/login")).toEqual(["root", "login"]);
    // Another array with other routes answers for itself, not from the first one's branches.
    const second: AgnosticRouteObject[] = [{ id: "only", path: "dashboard" }];
    expect(ids(second, "/dashboard")).toEqual(["only"]);
    expect(ids(second, "/cases/42")).toBeNull();
  });

  it("compiles a pattern once for each way it is matched", () => {
    expect(matchPath({ path: "/a/:b", caseSensitive: true, end: true }, "/A/1")).toBeNull();
    expect(matchPath({ path: "/a/:b", caseSensitive: false, end: true }, "/A/1")?.params).toEqual({ b: "1" });
    expect(matchPath({ path: "/a/:b", end: false }, "/a/1/more")?.pathnameBase).toBe("/a/1");
    expect(matchPath({ path: "/a/:b", end: true }, "/a/1/more")).toBeNull();
    expect(matchPath({ path: "/a/:b", caseSensitive: true, end: true }, "/a/2")?.params).toEqual({ b: "2" });
  });
});
