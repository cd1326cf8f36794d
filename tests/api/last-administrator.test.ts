import { describe, expect, it } from "vitest";
import { productCaller } from "../../server/auth/caller";
import { createUser } from "../../server/firm/create-firm";
import { serverResource } from "../../server/resources/registry";
import { type ApiResponse, DEMO, DEMO_PASSWORD, api, backends, login, sessionsOf, useApi } from "./harness";

// The firm always keeps an administrator, whichever way its users are changed: the user page
// (a role given, a user deleted), a CSV import of users, and two administrators demoting each
// other at once.

const LAST_ADMIN = "The firm needs at least one administrator. Give the Administrator role to someone else first.";

describe.each(backends)("the firm's last administrator (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const db = () => server().ctx.database.db;
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);

  const userOf = (email: string) =>
    db().selectFrom("app_user").select(["id", "firm_id", "security_role_id"]).where("email", "=", email).executeTakeFirstOrThrow();
  const roleOf = async (firmId: number, name: string) =>
    (await db().selectFrom("security_role").select("id").where("firm_id", "=", firmId).where("name", "=", name).executeTakeFirstOrThrow()).id;
  const roleNameOf = async (email: string) =>
    (
      await db()
        .selectFrom("app_user")
        .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
        .select("security_role.name")
        .where("app_user.email", "=", email)
        .executeTakeFirstOrThrow()
    ).name;

  it("refuses the only administrator giving themselves another role on the user page", async () => {
    const self = await userOf(DEMO.secondAdmin);
    const manager = await roleOf(self.firm_id, "Manager");
    const res = await (await as(DEMO.secondAdmin)).request("PATCH", `/api/v1/user/${self.id}`, { json: { security_role_id: manager } });
    expect([res.status, res.body.message]).toEqual([400, LAST_ADMIN]);
    expect(res.body.fieldErrors).toEqual({ security_role_id: [LAST_ADMIN] });
    expect(await roleNameOf(DEMO.secondAdmin)).toBe("Administrator");
  });

  it("refuses the only administrator deleting themselves", async () => {
    const self = await userOf(DEMO.secondAdmin);
    const res = await (await as(DEMO.secondAdmin)).request("DELETE", `/api/v1/user/${self.id}`);
    expect([res.status, res.body.message]).toEqual([400, LAST_ADMIN]);
    expect(await roleNameOf(DEMO.secondAdmin)).toBe("Administrator");
  });

  it("rejects an imported line that would take the role from the only administrator", async () => {
    const self = await userOf(DEMO.secondAdmin);
    const manager = await roleOf(self.firm_id, "Manager");
    const admin = await as(DEMO.secondAdmin);
    const started = await admin.request("POST", "/api/v1/user/import", {
      body: `email,full_name,display_name,security_role_id\n${DEMO.secondAdmin},Second Admin,Admin,${manager}\n`,
      headers: { "content-type": "text/plain" },
    });
    expect(started.status, started.text).toBe(202);
    let job: ApiResponse | undefined;
    for (let i = 0; i < 200 && (!job || job.body.status === "running"); i++) {
      if (job) await new Promise((resolve) => setTimeout(resolve, 50));
      job = await admin.get(`/api/v1/import-jobs/${started.body.id}`);
    }
    expect(job!.body).toMatchObject({ status: "done", updated: 0, rejected: 1 });
    const lines = await admin.get(`/api/v1/import-jobs/${started.body.id}/lines`);
    expect(lines.body[0].reasons).toEqual({ _row: [LAST_ADMIN] });
    expect(await roleNameOf(DEMO.secondAdmin)).toBe("Administrator");
  });

  it("refuses one of two administrators demoting each other at once: an administrator remains", async () => {
    const first = await userOf(DEMO.admin);
    const adminRole = await roleOf(first.firm_id, "Administrator");
    const manager = await roleOf(first.firm_id, "Manager");
    const email = "deputy.admin@demo.ecfx.test";
    const deputy = await createUser(
      server().ctx.database,
      { firmId: first.firm_id, email, fullName: "Deputy Admin", displayName: "Deputy", roleId: adminRole, password: DEMO_PASSWORD },
      Date.now(),
    );
    const asDeputy = api(server().url, (await login(server().url, email)).access_token);

    // The first administrator's demotion of the deputy is under way in its transaction when the
    // deputy demotes the first administrator. On PostgreSQL the deputy's request waits on the
    // firm and is refused as the last administrator's demotion; SQLite writes one transaction at
    // a time, so there the request waits for the demotion and is refused to a Manager.
    let reached!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const demotion = db()
      .transaction()
      .execute(async (trx) => {
        const write = { action: "update", id: deputy, values: { security_role_id: manager } } as const;
        await serverResource("users").hooks?.insideWrite?.(trx, server().ctx, productCaller(first.firm_id), write);
        await trx.updateTable("app_user").set({ security_role_id: manager }).where("id", "=", deputy).execute();
        reached();
        await gate;
      });
    await inside;
    const counter = asDeputy.request("PATCH", `/api/v1/user/${first.id}`, { json: { security_role_id: manager } });
    // The deputy's request has its chance to finish while the demotion is still open.
    await Promise.race([counter, new Promise((resolve) => setTimeout(resolve, 500))]);
    release();
    await demotion;
    const refused = await counter;
    expect([refused.status, refused.body.message]).toEqual(
      backend === "postgres" ? [400, LAST_ADMIN] : [403, "Only an administrator can change an administrator."],
    );
    expect(await roleNameOf(DEMO.admin)).toBe("Administrator");
    expect(await roleNameOf(email)).toBe("Manager");
  });
});
