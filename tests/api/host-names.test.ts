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

  // Decision 090: an address of the machine, a name of the machine itself, another firm's name or
  // a name that looks like one leads to someone else's sign-in page; no firm may answer to it.

  it("refuses IP addresses however they are written, and names of the machine itself", async () => {
    const { client, firm } = await secondFirm();
    const refused = {
      "127.0.0.1": "127.0.0.1 is an IP address: a firm answers to host names only.",
      "[::1]": "[::1] is an IP address: a firm answers to host names only.",
      "[::1]:3000": "[::1] is an IP address: a firm answers to host names only.",
      "2130706433": "127.0.0.1 is an IP address: a firm answers to host names only.",
      "0x7f.1": "127.0.0.1 is an IP address: a firm answers to host names only.",
      "127.1": "127.0.0.1 is an IP address: a firm answers to host names only.",
      "10.0.0.7": "10.0.0.7 is an IP address: a firm answers to host names only.",
      "demo.localhost": "demo.localhost names the server itself: a firm cannot answer to it.",
      "Demo.LocalHost.": "demo.localhost names the server itself: a firm cannot answer to it.",
    };
    for (const [host, text] of Object.entries(refused)) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: [...firm.host_names, host] });
      expect([host, res.status, res.body.message]).toEqual([host, 400, text]);
    }
    // The name under localhost the installation gave the firm stays its own.
    expect((await client.put(`/api/v1/firm/${firm.id}`, firm)).status).toBe(200);
  });

  it("refuses look-alikes of the names other firms answer to, Unicode or not", async () => {
    const { client, firm } = await secondFirm();
    const demo = api(server().url, (await login(server().url, DEMO.admin)).access_token);
    const demoFirm = (await demo.get("/api/v1/firm")).body as Record<string, unknown> & { id: number };
    expect((await demo.put(`/api/v1/firm/${demoFirm.id}`, { ...demoFirm, host_names: ["demo-law.example.com"] })).status).toBe(200);
    const lookAlikes = {
      lоcalhost: "lоcalhost looks like localhost, which another firm answers to.", // Cyrillic о
      "XN--LCALHOST-NBH": "lоcalhost looks like localhost, which another firm answers to.",
      "dеmo-law.example.com": "dеmo-law.example.com looks like demo-law.example.com, which another firm answers to.", // Cyrillic е
      "demo-1aw.example.com": "demo-1aw.example.com looks like demo-law.example.com, which another firm answers to.",
    };
    for (const [host, text] of Object.entries(lookAlikes)) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: [...firm.host_names, host] });
      expect([host, res.status, res.body.message]).toEqual([host, 409, text]);
    }
    const nonsense = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: ["https://chair.example.test/"] });
    expect([nonsense.status, nonsense.body.fieldErrors]).toEqual([
      400,
      { "host_names.0": ["Enter host names such as console.example.com, without a scheme, path or spaces."] },
    ]);
    // A Unicode name of its own is stored in the form browsers send, and leads to the firm.
    const own = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: [...firm.host_names, "kanzlei-müller.example"] });
    expect([own.status, own.body.host_names]).toEqual([200, ["second.localhost", "xn--kanzlei-mller-4ob.example"]]);
    expect((await api(server().url).get("/api/v1/firm/public?host=xn--kanzlei-mller-4ob.example")).body.name).toBe(firm.name);
    await demo.put(`/api/v1/firm/${demoFirm.id}`, { ...demoFirm, host_names: [] });
    await client.put(`/api/v1/firm/${firm.id}`, firm);
  });

  it("sends an IP address to the default firm even if a firm listed it before such names were refused", async () => {
    const { firm } = await secondFirm();
    await server()
      .ctx.database.db.updateTable("firm")
      .set({ host_names: JSON.stringify(["second.localhost", "127.0.0.1"]) })
      .where("id", "=", firm.id)
      .execute();
    for (const host of ["127.0.0.1:3000", "2130706433", "127.1"]) {
      expect([host, (await api(server().url).get(`/api/v1/firm/public?host=${host}`)).body.name]).not.toEqual([host, firm.name]);
    }
    await server()
      .ctx.database.db.updateTable("firm")
      .set({ host_names: JSON.stringify(["second.localhost"]) })
      .where("id", "=", firm.id)
      .execute();
  });
});
