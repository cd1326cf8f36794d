import { describe, expect, it } from "vitest";
import { DEMO, api, backends, login, useApi } from "./harness";

// Signing out and changing a user's role end every session of that user at once: refresh
// tokens and access tokens alike, on every machine the user signed in from.
describe.each(backends)("ending sessions (%s)", (backend) => {
  const server = useApi({ backend });

  it("signing out ends every session of the user, access tokens included", async () => {
    const here = await login(server().url, DEMO.viewOnly);
    const elsewhere = await login(server().url, DEMO.viewOnly);
    expect((await api(server().url, here.access_token).get("/auth/me")).status).toBe(200);

    const out = await api(server().url).post("/auth/logout", { refresh_token: here.refresh_token });
    expect(out.status).toBe(204);

    for (const session of [here, elsewhere]) {
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(401);
      const refresh = await api(server().url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: session.refresh_token });
      expect(refresh.status).toBe(400);
    }
  });

  it("signing out with only the access token ends the sessions too", async () => {
    const session = await login(server().url, DEMO.docketing);
    expect((await api(server().url, session.access_token).post("/auth/logout", {})).status).toBe(204);
    expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(401);
  });

  it("a role change ends the user's sessions; the next sign-in carries the new role", async () => {
    const admin = await login(server().url, DEMO.admin);
    const manager = await login(server().url, DEMO.manager);
    const adminApi = api(server().url, admin.access_token);
    const roles = await adminApi.get("/api/v1/security-role/search?size=50");
    expect(roles.status).toBe(200);
    const viewOnly = (roles.body as { id: string; name: string }[]).find((r) => r.name === "View Only")!;
    expect(viewOnly).toBeDefined();

    const changed = await adminApi.put(`/api/v1/user/${manager.user.id}`, { security_role_id: viewOnly.id });
    expect(changed.status).toBe(200);

    expect((await api(server().url, manager.access_token).get("/auth/me")).status).toBe(401);
    const refresh = await api(server().url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: manager.refresh_token });
    expect(refresh.status).toBe(400);
    const again = await login(server().url, DEMO.manager);
    expect((await api(server().url, again.access_token).get("/auth/me")).body.roleName).toBe("View Only");
  });

  it("an update that leaves the role alone keeps the user signed in", async () => {
    const admin = await login(server().url, DEMO.admin);
    const docketing = await login(server().url, DEMO.docketing);
    const changed = await api(server().url, admin.access_token).put(`/api/v1/user/${docketing.user.id}`, { display_name: "Dee" });
    expect(changed.status).toBe(200);
    expect((await api(server().url, docketing.access_token).get("/auth/me")).status).toBe(200);
  });

  it("a deleted user's sessions end", async () => {
    const admin = await login(server().url, DEMO.admin);
    const adminApi = api(server().url, admin.access_token);
    const created = await adminApi.post("/api/v1/user", {
      email: "leaver@demo.ecfx.test",
      full_name: "Leaver",
      display_name: "Leaver",
      security_role_id: admin.user.securityRoleId,
    });
    expect(created.status).toBe(201);
    const userId = created.body.id as string;
    const session = await server()
      .ctx.database.db.selectFrom("app_user")
      .select(["id", "firm_id", "token_version"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const { issueTokens } = await import("../../server/auth/tokens");
    const tokens = await issueTokens(server().ctx, session);
    expect((await api(server().url, tokens.access_token).get("/auth/me")).status).toBe(200);
    expect((await adminApi.request("DELETE", `/api/v1/user/${userId}`)).status).toBe(204);
    expect((await api(server().url, tokens.access_token).get("/auth/me")).status).toBe(401);
  });
});
