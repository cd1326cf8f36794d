import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

describe.each(backends)("user and firm web preferences (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);
  const layout = { hidden: ["status"], order: ["name", "unique_key"], widths: { name: 240 } };

  it("keeps a user's preference and gives it back", async () => {
    const manager = await as(DEMO.manager);
    const empty = await manager.get("/api/v1/preferences/table.clients");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ key: "table.clients", value: null });

    expect((await manager.put("/api/v1/preferences/table.clients", { value: layout })).status).toBe(200);
    expect((await manager.get("/api/v1/preferences/table.clients")).body.value).toEqual(layout);
    const changed = { ...layout, hidden: [] };
    expect((await manager.put("/api/v1/preferences/table.clients", { value: changed })).body.value).toEqual(changed);
    expect((await manager.get("/api/v1/preferences/table.clients")).body.value).toEqual(changed);

    expect((await manager.request("DELETE", "/api/v1/preferences/table.clients")).status).toBe(204);
    expect((await manager.get("/api/v1/preferences/table.clients")).body.value).toBeNull();
  });

  it("scopes preferences to the caller: other users and firms never see them", async () => {
    const admin = await as(DEMO.admin);
    const viewer = await as(DEMO.viewOnly);
    const second = await as(DEMO.secondAdmin);
    await admin.put("/api/v1/preferences/table.cases", { value: layout });
    expect((await viewer.get("/api/v1/preferences/table.cases")).body.value).toBeNull();
    expect((await second.get("/api/v1/preferences/table.cases")).body.value).toBeNull();
    await viewer.put("/api/v1/preferences/table.cases", { value: { hidden: ["name"] } });
    expect((await admin.get("/api/v1/preferences/table.cases")).body.value).toEqual(layout);
    await second.request("DELETE", "/api/v1/preferences/table.cases");
    expect((await admin.get("/api/v1/preferences/table.cases")).body.value).toEqual(layout);
  });

  it("refuses bad keys, oversized values and callers without a token", async () => {
    const admin = await as(DEMO.admin);
    expect((await admin.put("/api/v1/preferences/bad%20key", { value: 1 })).status).toBe(400);
    expect((await admin.get("/api/v1/preferences/.hidden")).status).toBe(400);
    expect((await admin.get("/api/v1/preferences/a*b")).status).toBe(400);
    const big = await admin.put("/api/v1/preferences/table.big", { value: "x".repeat(10_000) });
    expect(big.status).toBe(400);
    expect(big.body.fieldErrors.value[0]).toBe("Field length must be less than 10000 long");
    expect((await api(server().url).get("/api/v1/preferences/table.cases")).status).toBe(401);
  });

  it("saves the firm's web preferences for roles with full firm access only", async () => {
    const admin = await as(DEMO.admin);
    const saved = await admin.put("/api/v1/firm/web-preferences", { web_preferences: JSON.stringify({ tableStriped: true, other: 1 }) });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.body.web_preferences)).toEqual({ tableStriped: true, other: 1 });
    expect(JSON.parse((await admin.get("/api/v1/firm")).body.web_preferences)).toEqual({ tableStriped: true, other: 1 });

    // Manager reads firm settings but may not change them; View Only sees only the branding.
    expect((await (await as(DEMO.manager)).put("/api/v1/firm/web-preferences", { web_preferences: "{}" })).status).toBe(403);
    expect((await (await as(DEMO.viewOnly)).put("/api/v1/firm/web-preferences", { web_preferences: "{}" })).status).toBe(403);
    expect((await (await as(DEMO.viewOnly)).get("/api/v1/firm")).body).not.toHaveProperty("web_preferences");

    // The other firm's preferences are untouched by this firm's saves, and the reverse.
    const second = await as(DEMO.secondAdmin);
    expect(JSON.parse((await second.get("/api/v1/firm")).body.web_preferences)).toEqual({});
    await second.put("/api/v1/firm/web-preferences", { web_preferences: JSON.stringify({ tableStriped: false }) });
    expect(JSON.parse((await admin.get("/api/v1/firm")).body.web_preferences)).toEqual({ tableStriped: true, other: 1 });
  });

  it("accepts only a JSON object of at most 10 000 characters", async () => {
    const admin = await as(DEMO.admin);
    for (const bad of ["not json", "[1,2]", "null", "42", JSON.stringify({ x: "y".repeat(10_000) })]) {
      const res = await admin.put("/api/v1/firm/web-preferences", { web_preferences: bad });
      expect(res.status, bad.slice(0, 20)).toBe(400);
      expect(res.body.fieldErrors.web_preferences).toHaveLength(1);
    }
    expect((await admin.put("/api/v1/firm/web-preferences", { web_preferences: 12 })).status).toBe(400);
    expect((await admin.put("/api/v1/firm/web-preferences", {})).status).toBe(400);
    expect(JSON.parse((await admin.get("/api/v1/firm")).body.web_preferences)).toEqual({ tableStriped: true, other: 1 });
  });
});
