import { describe, expect, it } from "vitest";
import { callTimings, slowRoutes } from "../../server/api/call-timings";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// /slow's data: the firm's signed-in API calls of the last hour per route pattern, for the firm's
// administrators; another firm's calls and the ids in addresses never show.
describe.each(backends)("slow API calls (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  it("lists the firm's routes of the last hour with count, p50, p95 and max, slowest first", async () => {
    const [demo, second] = await Promise.all([sessionOf(DEMO.admin), sessionOf(DEMO.secondAdmin)]);
    const demoApi = api(server().url, demo.access_token);
    const secondApi = api(server().url, second.access_token);
    for (let i = 0; i < 7; i++) expect((await demoApi.get("/api/v1/case/search?max=5")).status).toBe(200);
    const roleId = demo.user.securityRoleId;
    expect((await demoApi.get(`/api/v1/user-security-role/${roleId}`)).status).toBeLessThan(500);
    for (let i = 0; i < 3; i++) await secondApi.get("/api/v1/client/search");

    const answer = await demoApi.get("/api/v1/slow-calls");
    expect(answer.status).toBe(200);
    const rows = answer.body as { method: string; route: string; count: number; p50: number; p95: number; max: number }[];
    const search = rows.find((r) => r.method === "GET" && r.route === "/api/v1/:resource/search");
    expect(search?.count).toBe(7);
    for (const r of rows) {
      expect(r.p50).toBeLessThanOrEqual(r.p95);
      expect(r.p95).toBeLessThanOrEqual(r.max);
    }
    expect(rows.map((r) => r.p95)).toEqual([...rows.map((r) => r.p95)].sort((a, b) => b - a));
    // Route patterns only: no firm id, no row id from an address.
    expect(JSON.stringify(rows)).not.toContain(roleId);
    expect(rows.some((r) => r.route === "/api/v1/user-security-role/:id")).toBe(true);

    // The second firm's admin sees its own three client searches, none of the demo firm's calls.
    const theirs = (await secondApi.get("/api/v1/slow-calls")).body as { route: string; count: number }[];
    expect(theirs.find((r) => r.route === "/api/v1/:resource/search")?.count).toBe(3);
    expect(theirs.some((r) => r.route === "/api/v1/user-security-role/:id")).toBe(false);
  });

  it("is for the firm's administrators: other roles are refused", async () => {
    const viewer = await sessionOf(DEMO.viewOnly);
    expect((await api(server().url, viewer.access_token).get("/api/v1/slow-calls")).status).toBe(403);
    expect((await api(server().url).get("/api/v1/slow-calls")).status).toBe(401);
  });

  it("keeps an hour: older calls are removed as new ones are written", async () => {
    const database = server().ctx.database;
    let now = Date.now();
    const timings = callTimings(database, () => now);
    timings.record({ firm_id: 999_001, method: "GET", route: "/old", ms: 5, at: now - 2 * 3_600_000 });
    timings.record({ firm_id: 999_001, method: "GET", route: "/new", ms: 9, at: now });
    now += 1;
    await timings.stop();
    expect((await slowRoutes(database, 999_001, now)).map((r) => r.route)).toEqual(["/new"]);
    const left = await database.db.selectFrom("api_call_timing").select("route").where("firm_id", "=", 999_001).execute();
    expect(left.map((r) => r.route)).toEqual(["/new"]);
  });

  it("computes nearest-rank percentiles", async () => {
    const database = server().ctx.database;
    const timings = callTimings(database);
    const at = Date.now();
    for (let ms = 1; ms <= 100; ms++) timings.record({ firm_id: 999_002, method: "GET", route: "/r", ms, at });
    await timings.stop();
    expect(await slowRoutes(database, 999_002)).toEqual([{ method: "GET", route: "/r", count: 100, p50: 50, p95: 95, max: 100 }]);
  });
});
