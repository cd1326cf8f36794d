import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";
import { solidPng } from "./png";

// The second firm's administrator holds FULL on everything, so any demo firm data they could
// reach would show; every answer must be scoped to their own firm.
describe.each(backends)("firm isolation (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  const sessions = async () => {
    const url = server().url;
    const [demo, second] = await Promise.all([sessionOf(DEMO.admin), sessionOf(DEMO.secondAdmin)]);
    return { demo, second, demoApi: api(url, demo.access_token), secondApi: api(url, second.access_token) };
  };

  it("shows each admin their own firm record", async () => {
    const { demoApi, secondApi } = await sessions();
    const demoFirm = (await demoApi.get("/api/v1/firm")).body;
    const secondFirm = (await secondApi.get("/api/v1/firm")).body;
    expect(demoFirm.name).toBe("Demo Law LLP");
    expect(secondFirm.name).toBe("Second Chair & Co");
    expect(secondFirm.id).not.toBe(demoFirm.id);
    expect((await secondApi.put(`/api/v1/firm/${demoFirm.id}`, { ...demoFirm, name: "Hijacked" })).status).toBe(404);
    expect((await demoApi.get("/api/v1/firm")).body.name).toBe("Demo Law LLP");
  });

  it("keeps a logo upload within the uploader's firm", async () => {
    const { demoApi, secondApi } = await sessions();
    const demoFirm = (await demoApi.get("/api/v1/firm")).body;
    const upload = await secondApi.request("PUT", "/api/v1/firm/logo.png", { body: solidPng(), headers: { "content-type": "image/png" } });
    expect(upload.status).toBe(200);
    expect((await api(server().url).get(`/api/v1/firm/logo.png?firm=${demoFirm.id}`)).status).toBe(404);
    expect((await demoApi.get("/api/v1/firm")).body.has_logo).toBe(false);
  });

  it("lists only the firm's own users, with its own total", async () => {
    const { demoApi, secondApi } = await sessions();
    const demoUsers = await demoApi.get("/api/v1/user/search?max=100");
    expect(demoUsers.status).toBe(200);
    expect(demoUsers.headers.get("x-total-count")).toBe("4");
    expect((demoUsers.body as { email: string }[]).map((u) => u.email).sort()).toEqual([DEMO.admin, DEMO.docketing, DEMO.manager, DEMO.viewOnly].sort());

    const secondUsers = await secondApi.get("/api/v1/user/search?max=100");
    expect(secondUsers.status).toBe(200);
    expect(secondUsers.headers.get("x-total-count")).toBe("1");
    expect((secondUsers.body as { email: string }[]).map((u) => u.email)).toEqual([DEMO.secondAdmin]);
    const searched = await secondApi.get("/api/v1/user/search?freeText=demo.ecfx");
    expect(searched.headers.get("x-total-count")).toBe("0");
    expect(searched.body).toEqual([]);
    expect(JSON.stringify(searched.body)).not.toContain("password");
  });

  it("searches, sorts and pages users within the firm", async () => {
    const { demoApi } = await sessions();
    const page = await demoApi.get("/api/v1/user/search?max=2&offset=1&sort=-email");
    expect(page.headers.get("x-total-count")).toBe("4");
    expect((page.body as { email: string }[]).map((u) => u.email)).toEqual([DEMO.manager, DEMO.docketing]);
    const found = await demoApi.get("/api/v1/user/search?freeText=MORGAN");
    expect((found.body as { email: string }[]).map((u) => u.email)).toEqual([DEMO.manager]);
    expect(found.body[0]).not.toHaveProperty("password_hash");
    const literal = await demoApi.get(`/api/v1/user/search?freeText=${encodeURIComponent("%")}`);
    expect(literal.headers.get("x-total-count")).toBe("0");
  });

  it("does not let one firm read the other's roles", async () => {
    const { demo, second, demoApi, secondApi } = await sessions();
    expect((await secondApi.get(`/api/v1/user-security-role/${demo.user.securityRoleId}`)).status).toBe(404);
    expect((await demoApi.get(`/api/v1/user-security-role/${second.user.securityRoleId}`)).status).toBe(404);
    expect((await secondApi.get(`/api/v1/user-security-role/${second.user.securityRoleId}`)).status).toBe(200);
  });

  it("keeps captured mail in the firm it was sent for", async () => {
    const { secondApi, demoApi } = await sessions();
    expect((await api(server().url).post("/auth/password-forgot", { email: DEMO.manager })).status).toBe(202);
    const demoMail = await demoApi.get("/api/v1/outbox/search");
    expect(demoMail.status).toBe(200);
    expect(Number(demoMail.headers.get("x-total-count"))).toBeGreaterThanOrEqual(1);
    const mailId = (demoMail.body as { id: string }[])[0]!.id;

    const secondMail = await secondApi.get("/api/v1/outbox/search");
    expect(secondMail.status).toBe(200);
    expect(secondMail.headers.get("x-total-count")).toBe("0");
    expect(secondMail.body).toEqual([]);
    expect((await secondApi.get(`/api/v1/outbox/${mailId}`)).status).toBe(404);
    expect((await demoApi.get(`/api/v1/outbox/${mailId}`)).status).toBe(200);
  });

  it("counts only the firm's own data on the dashboard", async () => {
    const { demoApi, secondApi } = await sessions();
    expect((await api(server().url).post("/auth/password-forgot", { email: DEMO.docketing })).status).toBe(202);
    const demoSummary = await demoApi.get("/api/v1/dashboard/summary");
    expect(demoSummary.status).toBe(200);
    expect(demoSummary.body).toMatchObject({ users: 4, security_roles: 4 });
    expect(demoSummary.body.outbound_mail).toBeGreaterThanOrEqual(1);
    const secondSummary = await secondApi.get("/api/v1/dashboard/summary");
    expect(secondSummary.body).toEqual({ users: 1, security_roles: 4, outbound_mail: 0 });
  });

  it("refuses the user list and dashboard to roles without access", async () => {
    const viewOnly = await sessionOf(DEMO.viewOnly);
    const client = api(server().url, viewOnly.access_token);
    expect((await client.get("/api/v1/user/search")).status).toBe(403);
    expect((await client.get("/api/v1/dashboard/summary")).status).toBe(200);
    expect((await client.get("/api/v1/outbox/search")).status).toBe(403);
  });

  it("counts a free-text search within the firm even when another firm's record names the firm's index token", async () => {
    const { demoApi, secondApi } = await sessions();
    const secondFirm = (await secondApi.get("/api/v1/firm")).body as { id: number };
    // The free-text index marks each firm's records with a token; text that spells another
    // firm's token must not make a record count as that firm's. The second firm has a client of
    // its own, so that its search is counted rather than known to be empty.
    expect((await secondApi.post("/api/v1/client", { name: "Wombat Partners", unique_key: "W-1" })).status).toBe(201);
    for (const [n, name] of [`firm${secondFirm.id}x Quokka Holdings`, `Firm ${secondFirm.id}x Quokka`, `FIRM${secondFirm.id}X quokka`].entries()) {
      expect((await demoApi.post("/api/v1/client", { name, unique_key: `Q-${n}` })).status).toBe(201);
    }
    for (const text of ["Quokka", `firm${secondFirm.id}x Quokka`]) {
      const found = await secondApi.get(`/api/v1/client/search?max=5&freeText=${encodeURIComponent(text)}`);
      expect(found.status).toBe(200);
      expect(found.body).toEqual([]);
      expect(found.headers.get("x-total-count")).toBe("0");
    }
    const own = await demoApi.get("/api/v1/client/search?max=5&freeText=Quokka");
    expect(own.headers.get("x-total-count")).toBe("3");
  });
});
