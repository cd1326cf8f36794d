import { type AgnosticRouteObject, matchPath, matchRoutes } from "@remix-run/router";
import * as moduleBuild from "@remix-run/router/dist/router.js";
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

  it("passes over branches by their whole path and answers every path as the unpatched router does", () => {
    // The patched build is the one Node loads (`main`); the module build is left as published.
    const unpatchedMatchRoutes = (moduleBuild as unknown as { matchRoutes: typeof matchRoutes }).matchRoutes;
    const routes: AgnosticRouteObject[] = [
      {
        id: "root",
        path: "",
        children: [
          { id: "root-index", index: true },
          {
            id: "app",
            children: [
              { id: "dashboard", path: "dashboard" },
              { id: "resource-index", path: ":resource" },
              { id: "resource-new", path: ":resource/new" },
              { id: "record", path: ":resource/:id/:tab?" },
              {
                id: "settings",
                path: "settings",
                children: [
                  { id: "settings-index", index: true },
                  { id: "settings-firm", path: "firm-profile" },
                ],
              },
              { id: "release", path: "release-notes/v2.1" },
              { id: "absolute", path: "/reports/:year/summary" },
            ],
          },
          { id: "login", path: "login", caseSensitive: true },
          { id: "files", path: "files/*" },
          { id: "lang", path: ":lang?/help" },
          { id: "anything", path: "*" },
        ],
      },
    ];
    const paths = [
      "/",
      "//",
      "/dashboard",
      "/dashboard/",
      "/DASHBOARD",
      "/cases",
      "/cases/",
      "/cases/new",
      "/cases/new/",
      "/cases/42",
      "/cases/42/history",
      "/cases/42/history/more",
      "/settings",
      "/settings/",
      "/settings/firm-profile",
      "/settings/other",
      "/release-notes/v2.1",
      "/release-notes/v2x1",
      "/reports/2026/summary",
      "/reports/2026",
      "/login",
      "/Login",
      "/files",
      "/files/a/b/c.pdf",
      "/help",
      "/en/help",
      "/en/help/x",
      "/a%20b",
      "/a%20b/c%2Fd",
      "/user-preferences",
      "/cases//42",
    ];
    for (const path of paths) {
      const ours = matchRoutes(routes, path)?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase }));
      const theirs = unpatchedMatchRoutes(routes, path)?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase }));
      expect(ours, path).toEqual(theirs);
    }
  });
});
