import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Spec §3: a timekeeper's user_defined_fields, the firm's own names and values: written as a map
// or as "name=value" lines, read back, exported and imported like every declared field.
describe.each(backends)("timekeeper custom fields (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  it("are kept, exported and imported back", async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    const created = await admin.post("/api/v1/timekeeper", {
      full_name: "Carla Custom",
      email: "carla@lawfirm.test",
      user_defined_fields: "Bar number=TX-123\nOffice floor = 12",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.user_defined_fields).toEqual({ "Bar number": "TX-123", "Office floor": "12" });
    const id = String(created.body.id);
    expect((await admin.get(`/api/v1/timekeeper/${id}`)).body.user_defined_fields).toEqual({ "Bar number": "TX-123", "Office floor": "12" });

    const csv = await admin.get("/api/v1/timekeeper/export?freeText=carla");
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("Custom fields");
    expect(csv.text).toContain("Bar number=TX-123");

    // The export, edited, imports back.
    const started = await admin.request("POST", "/api/v1/timekeeper/import", {
      body: csv.text.replace("TX-123", "TX-999"),
      headers: { "content-type": "text/csv" },
    });
    expect(started.status, started.text).toBe(202);
    for (let i = 0; i < 200 && (await admin.get(`/api/v1/import-jobs/${started.body.id}`)).body.status === "running"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await admin.get(`/api/v1/timekeeper/${id}`)).body.user_defined_fields).toEqual({ "Bar number": "TX-999", "Office floor": "12" });

    const refused = await admin.put(`/api/v1/timekeeper/${id}`, { user_defined_fields: { "": "no name" } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fieldErrors ?? {}).some((k) => k.startsWith("user_defined_fields"))).toBe(true);
  });
});
