import { describe, expect, it } from "vitest";
import { DEMO, api, backends, login, useApi } from "./harness";

// A host name leads to one firm only; the default firm implicitly answers to the console's own
// host (localhost here), so no other firm may claim it and show its branding on that sign-in page.
describe.each(backends)("firm host names (%s)", (backend) => {
  const server = useApi({ backend });

  async function secondFirm() {
    const session = await login(server().url, DEMO.secondAdmin);
    const client = api(server().url, session.access_token);
    const firm = (await client.get("/api/v1/firm")).body as Record<string, unknown> & { id: number; host_names: string[] };
    return { client, firm };
  }

  it("refuses another firm the default firm's implicit host name, however it is written", async () => {
    const { client, firm } = await secondFirm();
    for (const host of ["localhost", "LocalHost:3000", "localhost."]) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: [...firm.host_names, host] });
      expect([host, res.status]).toEqual([host, 409]);
      expect(res.body.message).toBe("Another firm already answers to localhost.");
    }
    const branding = await api(server().url).get("/api/v1/firm/public?host=localhost:3000");
    expect(branding.body.name).not.toBe(firm.name);
  });

  it("stores host names in one form: lower case, without port or trailing dot", async () => {
    const { client, firm } = await secondFirm();
    const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: ["Second.Localhost", "Chair.Example.TEST:8443", "chair.example.test."] });
    expect(res.status).toBe(200);
    expect(res.body.host_names).toEqual(["second.localhost", "chair.example.test"]);
    expect((await api(server().url).get("/api/v1/firm/public?host=chair.example.test")).body.name).toBe(firm.name);
  });

  it("sends the default firm's implicit host to the default firm even if another firm listed it earlier", async () => {
    const { firm } = await secondFirm();
    await server()
      .ctx.database.db.updateTable("firm")
      .set({ host_names: JSON.stringify(["second.localhost", "localhost"]) })
      .where("id", "=", firm.id)
      .execute();
    const branding = await api(server().url).get("/api/v1/firm/public?host=localhost");
    expect(branding.body.name).not.toBe(firm.name);
    await server()
      .ctx.database.db.updateTable("firm")
      .set({ host_names: JSON.stringify(["second.localhost"]) })
      .where("id", "=", firm.id)
      .execute();
  });
});
