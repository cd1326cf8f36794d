import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Spec §8 'Jurisdiction mapping failed': a jurisdiction mapped to an ECFX court that does not
// exist is refused in those words on the mapping field; other unknown references keep theirs.
describe.each(backends)("jurisdiction mapping (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  it("refuses a mapping to no court with the spec's words, and keeps a good one", async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    const bad = await admin.post("/api/v1/jurisdiction", { name: "Nowhere District", ecfx_jurisdictions: ["txed", "no-such-court"] });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ ecfx_jurisdictions: ["Jurisdiction mapping failed"] });
    expect((await admin.get("/api/v1/jurisdiction/search?freeText=Nowhere")).body).toEqual([]);

    const good = await admin.post("/api/v1/jurisdiction", { name: "E.D. Texas", ecfx_jurisdictions: ["txed"] });
    expect(good.status).toBe(201);
    const updated = await admin.put(`/api/v1/jurisdiction/${String(good.body.id)}`, { name: "E.D. Texas", ecfx_jurisdictions: ["not-a-court"] });
    expect(updated.body.fieldErrors).toEqual({ ecfx_jurisdictions: ["Jurisdiction mapping failed"] });

    const matter = await admin.post("/api/v1/matter", { name: "Orphan", unique_key: "M-ORPHAN", client_id: "no-such-client" });
    expect(matter.body.fieldErrors).toEqual({ client_id: ["Pick an existing entry."] });
  });
});
