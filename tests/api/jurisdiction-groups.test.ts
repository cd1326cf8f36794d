import { describe, expect, it } from "vitest";
import { DEMO, api, backends, login, useApi } from "./harness";

// Jurisdiction groups: the firm's own jurisdictions under one name, never another firm's.

describe.each(backends)("jurisdiction groups (%s)", (backend) => {
  const server = useApi({ backend });
  const clients = async () => {
    const [a, b] = await Promise.all([login(server().url, DEMO.admin), login(server().url, DEMO.secondAdmin)]);
    return { a: api(server().url, a.access_token), b: api(server().url, b.access_token) };
  };

  it("asks for a name and keeps the firm's jurisdictions", async () => {
    const { a } = await clients();
    const missing = await a.post("/api/v1/jurisdiction-group", { jurisdiction_references: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors.name).toEqual(["This field is required."]);
    const court = (await a.post("/api/v1/jurisdiction", { name: "Groups S.D.N.Y.", ecfx_jurisdictions: ["nysd"] })).body.id;
    const group = await a.post("/api/v1/jurisdiction-group", { name: "New York", jurisdiction_references: [court] });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ name: "New York", jurisdiction_references: [court] });
    // A jurisdiction a group holds is not deleted from under it.
    const removed = await a.request("DELETE", `/api/v1/jurisdiction/${court}`);
    expect(removed.status).toBe(409);
    expect(removed.body.message).toBe("Jurisdiction groups include this jurisdiction; take it out of them first");
  });

  it("never shows another firm's group, nor lets a group name another firm's jurisdiction", async () => {
    const { a, b } = await clients();
    const courtA = (await a.post("/api/v1/jurisdiction", { name: "Isolated D. Mass.", ecfx_jurisdictions: ["mad"] })).body.id;
    const groupA = (await a.post("/api/v1/jurisdiction-group", { name: "Massachusetts", jurisdiction_references: [courtA] })).body.id;
    expect((await b.get(`/api/v1/jurisdiction-group/${groupA}`)).status).toBe(404);
    expect((await b.request("PATCH", `/api/v1/jurisdiction-group/${groupA}`, { json: { name: "Taken" } })).status).toBe(404);
    expect((await b.get("/api/v1/jurisdiction-group/search?max=100")).body.map((g: { id: string }) => g.id)).not.toContain(groupA);
    const borrowed = await b.post("/api/v1/jurisdiction-group", { name: "Borrowed", jurisdiction_references: [courtA] });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.fieldErrors.jurisdiction_references).toBeTruthy();
    expect((await a.get(`/api/v1/jurisdiction-group/${groupA}`)).body.name).toBe("Massachusetts");
  });
});
