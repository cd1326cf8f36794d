import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// The role picker of the user wizard reads the firm's roles from this search, for whoever may read users.
describe.each(backends)("security role search (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);

  it("lists the firm's own roles by name, with the total in x-total-count", async () => {
    const res = await (await as(DEMO.manager)).get("/api/v1/security-role-choice/search");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("4");
    expect(res.body).toEqual([
      { id: expect.any(String), name: "Administrator", is_system_defined: true },
      { id: expect.any(String), name: "Docketing", is_system_defined: false },
      { id: expect.any(String), name: "Manager", is_system_defined: false },
      { id: expect.any(String), name: "View Only", is_system_defined: false },
    ]);
  });

  it("narrows by free text and by id, and pages", async () => {
    const admin = await as(DEMO.admin);
    const text = await admin.get("/api/v1/security-role-choice/search?freeText=MAN");
    expect(text.body.map((r: { name: string }) => r.name)).toEqual(["Manager"]);

    const all = (await admin.get("/api/v1/security-role-choice/search")).body as { id: string; name: string }[];
    const byId = await admin.get(`/api/v1/security-role-choice/search?filter.id=${all[0]!.id},${all[3]!.id}`);
    expect(byId.body.map((r: { name: string }) => r.name)).toEqual([all[0]!.name, all[3]!.name]);

    const page = await admin.get("/api/v1/security-role-choice/search?max=2&offset=2");
    expect(page.headers.get("x-total-count")).toBe("4");
    expect(page.body.map((r: { name: string }) => r.name)).toEqual(["Manager", "View Only"]);
  });

  it("never shows another firm's roles", async () => {
    const demoRoles = (await (await as(DEMO.admin)).get("/api/v1/security-role-choice/search")).body as { id: string }[];
    const second = await as(DEMO.secondAdmin);
    const res = await second.get(`/api/v1/security-role-choice/search?filter.id=${demoRoles.map((r) => r.id).join(",")}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total-count")).toBe("0");
  });

  it("needs read access to users and a valid query", async () => {
    expect((await (await as(DEMO.viewOnly)).get("/api/v1/security-role-choice/search")).status).toBe(403);
    expect((await api(server().url).get("/api/v1/security-role-choice/search")).status).toBe(401);
    expect((await (await as(DEMO.admin)).get("/api/v1/security-role-choice/search?max=1000")).status).toBe(400);
  });
});
