import { describe, expect, it } from "vitest";
import { DEMO, DEMO_PASSWORD, api, backends, login, testClock, useApi } from "./harness";

const LOGIN_FAILED = "The information you entered does not match the records in our system. Please try again.";

describe.each(backends)("sign-in and /auth/me (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock });

  it("answers a sign-in with the user, an access token, a refresh token and its lifetime", async () => {
    const res = await api(server().url).post("/auth/login", { username: DEMO.admin, password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "user"]);
    expect(res.body).toMatchObject({
      user: { id: expect.any(String), email: DEMO.admin, fullName: "Avery Admin", securityRoleId: expect.any(String) },
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
    });
    expect(res.body.access_token).not.toBe(res.body.refresh_token);
  });

  it("accepts the e-mail address in any case", async () => {
    const session = await login(server().url, DEMO.admin.toUpperCase());
    expect(session.user.email).toBe(DEMO.admin);
  });

  it("refuses a wrong password with the catalogue message", async () => {
    const res = await api(server().url).post("/auth/login", { username: DEMO.manager, password: "not-the-password" });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(LOGIN_FAILED);
    expect(res.body).not.toHaveProperty("access_token");
  });

  it("refuses an unknown user with the same message as a wrong password", async () => {
    const res = await api(server().url).post("/auth/login", { username: "nobody@demo.ecfx.test", password: DEMO_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(LOGIN_FAILED);
  });

  it("signs in on a firm's host only that firm's users: another firm's user reads the wrong-password message", async () => {
    const client = api(server().url);
    // localhost leads to the default (demo) firm; second.localhost to the second firm.
    const elsewhere = await client.post("/auth/login", { username: DEMO.secondAdmin, password: DEMO_PASSWORD, host: "localhost:3000" });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual(expect.objectContaining({ message: LOGIN_FAILED }));
    expect(elsewhere.body).not.toHaveProperty("access_token");
    const away = await client.post("/auth/login", { username: DEMO.admin, password: DEMO_PASSWORD, host: "second.localhost:3000" });
    expect(away.status).toBe(401);
    expect(away.body.message).toBe(LOGIN_FAILED);

    const home = await client.post("/auth/login", { username: DEMO.secondAdmin, password: DEMO_PASSWORD, host: "second.localhost:3000" });
    expect(home.status).toBe(200);
    expect(home.body.user.email).toBe(DEMO.secondAdmin);
    expect((await client.post("/auth/login", { username: DEMO.admin, password: DEMO_PASSWORD, host: "localhost:3000" })).status).toBe(200);
  });

  it("answers an invalid body with 400 and the errors per field", async () => {
    const client = api(server().url);
    const bad = await client.post("/auth/login", { username: "not-an-email", password: "" });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.username).toEqual(["Enter a valid email address."]);
    expect(bad.body.fieldErrors.password).toEqual(["This field is required."]);

    const empty = await client.post("/auth/login", {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.fieldErrors).sort()).toEqual(["password", "username"]);
  });

  it("returns the signed-in user with its role map", async () => {
    const session = await login(server().url, DEMO.admin);
    const res = await api(server().url, session.access_token).get("/auth/me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: session.user.id,
      email: DEMO.admin,
      fullName: "Avery Admin",
      securityRoleId: session.user.securityRoleId,
      roleName: "Administrator",
      isAdmin: true,
    });
  });

  it("refuses /auth/me without a token, with a malformed one and with a forged one", async () => {
    const url = server().url;
    expect((await api(url).get("/auth/me")).status).toBe(401);
    expect((await api(url, "not-a-jwt").get("/auth/me")).status).toBe(401);
    expect((await api(url).get("/auth/me", { authorization: "Basic YWRtaW46YWRtaW4=" })).status).toBe(401);
    const session = await login(url, DEMO.admin);
    const [header, payload] = session.access_token.split(".");
    const forged = `${header}.${payload}.${Buffer.from("forged-signature").toString("base64url")}`;
    const res = await api(url, forged).get("/auth/me");
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Sign in to continue.");
  });

  it("refuses an access token once it has expired", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    const client = api(server().url, session.access_token);
    expect((await client.get("/auth/me")).status).toBe(200);
    clock.advance((session.expires_in + 1) * 1000);
    expect((await client.get("/auth/me")).status).toBe(401);
    expect((await client.get("/api/v1/ping")).status).toBe(401);
  });

  describe("role maps of the demo roles", () => {
    const roleOf = async (email: string) => {
      const session = await login(server().url, email);
      const me = await api(server().url, session.access_token).get("/auth/me");
      expect(me.status).toBe(200);
      return me.body as { roleName: string; isAdmin: boolean; userRole: Record<string, string> };
    };

    it("grants the Administrator FULL on every access key", async () => {
      const me = await roleOf(DEMO.admin);
      expect(me.isAdmin).toBe(true);
      expect(Object.keys(me.userRole)).toHaveLength(21);
      for (const level of Object.values(me.userRole)) expect(level).toBe("FULL");
    });

    it("gives the Manager read-only firm settings and FULL elsewhere", async () => {
      const me = await roleOf(DEMO.manager);
      expect(me).toMatchObject({ roleName: "Manager", isAdmin: false });
      expect(me.userRole.firmAccess).toBe("READ");
      expect(me.userRole.userAccess).toBe("FULL");
      expect(me.userRole.caseAccess).toBe("FULL");
    });

    it("gives Docketing FULL cases, READ judges and no firm or user access", async () => {
      const me = await roleOf(DEMO.docketing);
      expect(me.userRole).toMatchObject({
        caseAccess: "FULL",
        inboxItemAccess: "FULL",
        firmAccess: "DENY",
        userAccess: "DENY",
        judgeAccess: "READ",
      });
    });

    it("gives View Only READ cases and no firm or user access", async () => {
      const me = await roleOf(DEMO.viewOnly);
      expect(me.userRole).toMatchObject({ caseAccess: "READ", dashboardAccess: "READ", firmAccess: "DENY", userAccess: "DENY" });
      expect(Object.values(me.userRole)).not.toContain("FULL");
    });
  });
});
