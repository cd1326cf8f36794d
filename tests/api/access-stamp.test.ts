import { describe, expect, it } from "vitest";
import { ACCESS_STAMP_HEADER } from "../../app/common/access-stamp";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// A console keeps each session's user and role for a few seconds; the stamp on every answer is how
// it learns, from whichever process made the change, that the role is not what it kept.

describe.each(backends)("the caller's access stamp (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const db = () => server().ctx.database.db;

  const stampOf = async (email: string, route = "/api/v1/ping") => {
    const res = await api(server().url, (await sessionOf(email)).access_token).get(route);
    expect(res.status).toBeLessThan(500);
    return res.headers.get(ACCESS_STAMP_HEADER);
  };
  const roleOf = async (email: string) =>
    db()
      .selectFrom("app_user")
      .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
      .select(["security_role.id", "security_role.permissions", "app_user.id as user_id"])
      .where("app_user.email", "=", email)
      .executeTakeFirstOrThrow();

  it("is the same on every answer while the role stays, and differs between roles", async () => {
    const viewer = await stampOf(DEMO.viewOnly);
    expect(viewer).toMatch(/^[\w-]{16}$/);
    expect(await stampOf(DEMO.viewOnly, "/api/v1/case/search?size=1")).toBe(viewer);
    expect(await stampOf(DEMO.admin)).not.toBe(viewer);
    const anonymous = await api(server().url).get("/api/v1/ping");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get(ACCESS_STAMP_HEADER)).toBeNull();
  });

  it("moves when the role's grants change, when the user gets another role, and with the firm's words", async () => {
    const before = await stampOf(DEMO.viewOnly);
    const role = await roleOf(DEMO.viewOnly);
    const permissions = JSON.parse(role.permissions) as Record<string, { access: string }>;
    await db()
      .updateTable("security_role")
      .set({ permissions: JSON.stringify({ ...permissions, matter: { ...permissions.matter, access: "DENY" } }) })
      .where("id", "=", role.id)
      .execute();
    const denied = await stampOf(DEMO.viewOnly);
    expect(denied).not.toBe(before);

    // A refused answer carries it too: the console learns of the change from the refusal.
    const refused = await api(server().url, (await sessionOf(DEMO.viewOnly)).access_token).get("/api/v1/matter/search");
    expect(refused.status).toBe(403);
    expect(refused.headers.get(ACCESS_STAMP_HEADER)).toBe(denied);

    await db().updateTable("security_role").set({ permissions: role.permissions }).where("id", "=", role.id).execute();
    expect(await stampOf(DEMO.viewOnly)).toBe(before);

    const admin = await roleOf(DEMO.admin);
    await db().updateTable("app_user").set({ security_role_id: admin.id }).where("id", "=", role.user_id).execute();
    expect(await stampOf(DEMO.viewOnly)).toBe(await stampOf(DEMO.admin));
    await db().updateTable("app_user").set({ security_role_id: role.id }).where("id", "=", role.user_id).execute();
    expect(await stampOf(DEMO.viewOnly)).toBe(before);

    const firm = await db().selectFrom("app_user").select("firm_id").where("id", "=", role.user_id).executeTakeFirstOrThrow();
    await db()
      .updateTable("firm")
      .set((eb) => ({ dictionary_version: eb("dictionary_version", "+", 1) }))
      .where("id", "=", firm.firm_id)
      .execute();
    expect(await stampOf(DEMO.viewOnly)).not.toBe(before);
  });
});
