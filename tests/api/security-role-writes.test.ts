import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../server/firm/create-firm";
import { newId } from "../../server/lib/ids";
import { DEMO, DEMO_PASSWORD, api, backends, login, sessionsOf, useApi } from "./harness";

// Roles are created, changed and deleted as the binary UserSecurityRole message. Encoded and
// decoded with protobufjs straight from the .proto file, not through the product's helpers.
const UserSecurityRole = protobuf.loadSync(fileURLToPath(new URL("../../proto/security_role.proto", import.meta.url))).lookupType("ecfx.UserSecurityRole");
const PROTOBUF = "application/x-protobuf";

type Level = "FULL" | "READ" | "DENY";
type Role = Record<string, unknown> & { id: string; name: string; userIds: string[]; isSystemDefined: boolean };

const accessFields = UserSecurityRole.fieldsArray.filter((f) => f.type === "AccessType").map((f) => f.name);

/** A role message: every type at `base`, with the given resource and field levels on top. */
function roleBody(
  name: string,
  userIds: string[],
  levels: Record<string, Level> = {},
  fields: Record<string, Record<string, Level>> = {},
  base: Level = "DENY",
): Uint8Array {
  const value: Record<string, unknown> = { name, userIds };
  for (const f of accessFields) value[f] = levels[f.replace(/Access$/, "")] ?? base;
  for (const [type, levelsOfFields] of Object.entries(fields)) {
    value[`${type}FieldPermissions`] = Object.fromEntries(Object.entries(levelsOfFields).map(([f, l]) => [`${f}Access`, l]));
  }
  return UserSecurityRole.encode(UserSecurityRole.fromObject(value)).finish();
}

/** Every level of a decoded role, to send it back unchanged but for what a test changes. */
function bodyOf(role: Role, change: Partial<Role> = {}): Uint8Array {
  return UserSecurityRole.encode(UserSecurityRole.fromObject({ ...role, ...change })).finish();
}

const decode = (bytes: Uint8Array) =>
  UserSecurityRole.toObject(UserSecurityRole.decode(bytes), { enums: String, longs: Number, defaults: true, arrays: true }) as Role;

describe.each(backends)("security role writes (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const db = () => server().ctx.database.db;
  const firm = { A: 0, B: 0 };

  const client = async (email: string) => {
    const c = api(server().url, (await sessionOf(email)).access_token);
    return {
      ...c,
      send: (method: string, route: string, body: Uint8Array, type = PROTOBUF) =>
        c.request(method, route, { body, headers: { "content-type": type, accept: PROTOBUF } }),
      del: (route: string) => c.request("DELETE", route),
    };
  };
  const roleIdOf = async (firmId: number, name: string) =>
    (await db().selectFrom("security_role").select("id").where("firm_id", "=", firmId).where("name", "=", name).executeTakeFirstOrThrow()).id;
  const roleOfUser = async (userId: string) =>
    (
      await db()
        .selectFrom("app_user")
        .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
        .select("security_role.name")
        .where("app_user.id", "=", userId)
        .executeTakeFirstOrThrow()
    ).name;

  let made = 0;
  /** A user of the firm with the named role, for a test to move around. */
  const newUser = async (which: "A" | "B", roleName: string) => {
    made += 1;
    const email = `role-user-${made}-${which.toLowerCase()}@${which === "A" ? "demo" : "second"}.ecfx.test`;
    const id = await createUser(
      server().ctx.database,
      {
        firmId: firm[which],
        email,
        fullName: `Role User ${made}`,
        displayName: `RU${made}`,
        roleId: await roleIdOf(firm[which], roleName),
        password: DEMO_PASSWORD,
      },
      Date.now(),
    );
    return { id, email };
  };
  /** A role stored as given, for a caller whose rights a test needs exactly. */
  const storedRole = async (which: "A" | "B", name: string, permissions: Record<string, { access: Level; fields?: Record<string, Level> }>) => {
    const id = newId();
    const now = Date.now();
    await db()
      .insertInto("security_role")
      .values({ id, firm_id: firm[which], name, is_system_defined: 0, permissions: JSON.stringify(permissions), created_at: now, updated_at: now })
      .execute();
    return id;
  };
  /** Gives a role of firm A to one more user through the role, as the role page does. */
  const giveRole = async (admin: Awaited<ReturnType<typeof client>>, roleName: string, userId: string) => {
    const role = decode((await admin.get(`/api/v1/user-security-role/${await roleIdOf(firm.A, roleName)}`)).bytes);
    return admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { userIds: [...role.userIds, userId] }));
  };
  const audits = async (text: string) =>
    (await db().selectFrom("event_log").select("detail").where("level", "=", "AUDIT").where("detail", "like", `%${text}%`).execute()).map((r) => r.detail);

  beforeAll(async () => {
    const firmOf = async (email: string) => (await db().selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    firm.A = await firmOf(DEMO.admin);
    firm.B = await firmOf(DEMO.secondAdmin);
  });

  it("creates a role from the binary message and answers it the same way; a field never exceeds its resource", async () => {
    const admin = await client(DEMO.admin);
    const user = await newUser("A", "View Only");
    const created = await admin.send(
      "POST",
      "/api/v1/user-security-role",
      roleBody("Paralegals", [user.id], { case: "FULL", client: "READ", matter: "READ" }, { case: { caseNumber: "READ" }, client: { name: "FULL" } }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("content-type")).toMatch(/^application\/x-protobuf/);
    const role = decode(created.bytes);
    expect(role).toMatchObject({
      name: "Paralegals",
      isSystemDefined: false,
      userIds: [user.id],
      caseAccess: "FULL",
      clientAccess: "READ",
      firmAccess: "DENY",
    });
    const caseFields = role.caseFieldPermissions as Record<string, Level>;
    expect(caseFields.caseNumberAccess).toBe("READ");
    expect(caseFields.nameAccess).toBe("DENY");
    // Asked FULL on a client field of a READ resource: stored as READ.
    expect((role.clientFieldPermissions as Record<string, Level>).nameAccess).toBe("READ");
    // Without field permissions in the message, a type's fields take its level.
    expect((role.matterFieldPermissions as Record<string, Level>).nameAccess).toBe("READ");

    const read = await admin.get(`/api/v1/user-security-role/${role.id}`);
    expect(decode(read.bytes)).toEqual(role);
    expect(await roleOfUser(user.id)).toBe("Paralegals");

    const listed = await admin.get("/api/v1/security-role/search?filter.name=Paralegals");
    expect(listed.body).toEqual([expect.objectContaining({ id: role.id, name: "Paralegals", user_count: 1, is_system_defined: false })]);

    // Saved back as fetched, with one level changed.
    const saved = await admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { clientAccess: "DENY" }));
    expect(saved.status, saved.text).toBe(200);
    expect(decode(saved.bytes)).toMatchObject({ clientAccess: "DENY", caseAccess: "FULL", clientFieldPermissions: { nameAccess: "DENY" } });
  });

  it("requires a name and at least one user, in the catalogue's words", async () => {
    const admin = await client(DEMO.admin);
    const res = await admin.send("POST", "/api/v1/user-security-role", roleBody("  ", []));
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ name: ["This field is required."], userIds: ["Assign at least one user."] });
    const long = await admin.send("POST", "/api/v1/user-security-role", roleBody("x".repeat(101), [(await newUser("A", "View Only")).id]));
    expect(long.body.fieldErrors).toEqual({ name: ["Field length must be less than 100 long"] });
  });

  it("keeps names unique in the firm (409, nothing written), while another firm may use the same name", async () => {
    const admin = await client(DEMO.admin);
    const user = await newUser("A", "View Only");
    const clash = await admin.send("POST", "/api/v1/user-security-role", roleBody("Manager", [user.id], { case: "READ" }));
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe("Error code: 409. Entity already exists. Make sure fields are unique.");
    expect(await roleOfUser(user.id)).toBe("View Only");

    const created = await admin.send("POST", "/api/v1/user-security-role", roleBody("Unique name", [user.id], { case: "READ" }));
    const renamed = await admin.send("PUT", `/api/v1/user-security-role/${decode(created.bytes).id}`, roleBody("Docketing", [user.id], { case: "READ" }));
    expect(renamed.status).toBe(409);

    const second = await client(DEMO.secondAdmin);
    const other = await second.send("POST", "/api/v1/user-security-role", roleBody("Unique name", [(await newUser("B", "View Only")).id], { case: "READ" }));
    expect(other.status, other.text).toBe(201);
  });

  it("never reaches another firm: its roles are 404 to read, change and delete, its users cannot be added", async () => {
    const adminA = await client(DEMO.admin);
    const adminB = await client(DEMO.secondAdmin);
    const roleA = await roleIdOf(firm.A, "Docketing");
    const userA = await newUser("A", "Docketing");
    expect((await adminB.get(`/api/v1/user-security-role/${roleA}`)).status).toBe(404);
    expect((await adminB.get(`/api/v1/security-role/${roleA}`)).status).toBe(404);
    expect((await adminB.send("PUT", `/api/v1/user-security-role/${roleA}`, roleBody("Docketing", [(await newUser("B", "View Only")).id]))).status).toBe(404);
    expect((await adminB.del(`/api/v1/user-security-role/${roleA}`)).status).toBe(404);
    const search = await adminB.get(`/api/v1/security-role/search?filter.id=${roleA}`);
    expect(search.body).toEqual([]);
    expect(decode((await adminA.get(`/api/v1/user-security-role/${roleA}`)).bytes)).toMatchObject({ id: roleA, name: "Docketing" });

    const taking = await adminB.send("POST", "/api/v1/user-security-role", roleBody("Poachers", [userA.id], { case: "READ" }));
    expect(taking.status).toBe(400);
    expect(taking.body.fieldErrors).toEqual({ userIds: ["Pick an existing entry."] });
    expect(await roleOfUser(userA.id)).toBe("Docketing");
  });

  it("needs full access to firm settings to change roles and read access to view them", async () => {
    const user = await newUser("A", "View Only");
    const manager = await client(DEMO.manager);
    const viewOnly = await client(DEMO.viewOnly);
    const docketing = await roleIdOf(firm.A, "Docketing");
    expect((await manager.get(`/api/v1/user-security-role/${docketing}`)).status).toBe(200);
    expect((await manager.send("POST", "/api/v1/user-security-role", roleBody("By a manager", [user.id], { case: "READ" }))).status).toBe(403);
    expect((await manager.del(`/api/v1/user-security-role/${docketing}`)).status).toBe(403);
    expect((await viewOnly.get(`/api/v1/user-security-role/${docketing}`)).status).toBe(403);
    expect((await viewOnly.get("/api/v1/security-role/search")).status).toBe(403);
    expect(
      (await api(server().url).request("POST", "/api/v1/user-security-role", { body: roleBody("x", [user.id]), headers: { "content-type": PROTOBUF } })).status,
    ).toBe(401);
    // The generic module lists and reads roles but never writes them.
    expect((await (await client(DEMO.admin)).post("/api/v1/security-role", { name: "Plain JSON" })).status).toBe(405);
  });

  it("lets nobody create or save a role above their own, nor give the admin role (403)", async () => {
    // Full access to firm settings and users, read-only on cases but for their numbers.
    await storedRole("A", "Settings keepers", {
      firm: { access: "FULL" },
      user: { access: "FULL" },
      case: { access: "READ", fields: { case_number: "DENY" } },
    });
    await storedRole("A", "No rights", {});
    const keeper = await newUser("A", "Settings keepers");
    const session = await login(server().url, keeper.email);
    const c = api(server().url, session.access_token);
    const send = (method: string, route: string, body: Uint8Array) => c.request(method, route, { body, headers: { "content-type": PROTOBUF } });
    const target = await newUser("A", "No rights");

    const above = await send("POST", "/api/v1/user-security-role", roleBody("Case writers", [target.id], { case: "FULL" }));
    expect(above.status).toBe(403);
    expect(above.body.message).toBe("A role cannot hold more rights than your own.");
    const fieldAbove = await send("POST", "/api/v1/user-security-role", roleBody("Case number readers", [target.id], { case: "READ" }));
    expect(fieldAbove.status).toBe(403);
    const fieldWithin = await send(
      "POST",
      "/api/v1/user-security-role",
      roleBody("Case readers", [target.id], { case: "READ" }, { case: { caseNumber: "DENY", name: "FULL" } }),
    );
    expect(fieldWithin.status, fieldWithin.text).toBe(201);
    const withinRole = decode(fieldWithin.bytes);
    expect((withinRole.caseFieldPermissions as Record<string, Level>).nameAccess).toBe("READ");

    const raised = await send("PUT", `/api/v1/user-security-role/${withinRole.id}`, bodyOf(withinRole, { caseAccess: "FULL" }));
    expect(raised.status).toBe(403);

    // Joining the administrators, or taking in an administrator.
    const adminRole = decode((await (await client(DEMO.admin)).get(`/api/v1/user-security-role/${await roleIdOf(firm.A, "Administrator")}`)).bytes);
    const selfPromotion = await send("PUT", `/api/v1/user-security-role/${adminRole.id}`, bodyOf(adminRole, { userIds: [...adminRole.userIds, keeper.id] }));
    expect(selfPromotion.status).toBe(403);
    expect(selfPromotion.body.message).toBe("Only an administrator can change an administrator.");
    const adminSession = await sessionOf(DEMO.admin);
    const takeAdmin = await send("PUT", `/api/v1/user-security-role/${withinRole.id}`, bodyOf(withinRole, { userIds: [target.id, adminSession.user.id] }));
    expect(takeAdmin.status).toBe(403);
    // A role holding more than the caller stays out of their reach.
    const manager = await roleIdOf(firm.A, "Manager");
    expect((await c.request("DELETE", `/api/v1/user-security-role/${manager}`)).status).toBe(403);

    expect(await roleOfUser(keeper.id)).toBe("Settings keepers");
    expect(await roleOfUser(adminSession.user.id)).toBe("Administrator");
    // Nor may they take in a user holding more than they do.
    const richer = await newUser("A", "View Only");
    const taken = await send("PUT", `/api/v1/user-security-role/${withinRole.id}`, bodyOf(withinRole, { userIds: [target.id, richer.id] }));
    expect([taken.status, taken.body.message]).toEqual([403, "This user holds rights you do not have; you cannot change them."]);
  });

  it("keeps the Administrator role: never deleted, renamed or lowered; an administrator may give it", async () => {
    const admin = await client(DEMO.admin);
    const adminRoleId = await roleIdOf(firm.A, "Administrator");
    const role = decode((await admin.get(`/api/v1/user-security-role/${adminRoleId}`)).bytes);
    const fixed = "The Administrator role is defined by ECFX: it cannot be renamed, lowered or deleted.";

    const deleted = await admin.del(`/api/v1/user-security-role/${adminRoleId}`);
    expect([deleted.status, deleted.body.message]).toEqual([400, fixed]);
    const renamed = await admin.send("PUT", `/api/v1/user-security-role/${adminRoleId}`, bodyOf(role, { name: "Admins" }));
    expect([renamed.status, renamed.body.message]).toEqual([400, fixed]);
    const lowered = await admin.send("PUT", `/api/v1/user-security-role/${adminRoleId}`, bodyOf(role, { caseAccess: "READ" }));
    expect([lowered.status, lowered.body.message]).toEqual([400, fixed]);
    const fieldLowered = await admin.send(
      "PUT",
      `/api/v1/user-security-role/${adminRoleId}`,
      bodyOf(role, { caseFieldPermissions: { ...(role.caseFieldPermissions as object), nameAccess: "DENY" } }),
    );
    expect([fieldLowered.status, fieldLowered.body.message]).toEqual([400, fixed]);

    const user = await newUser("A", "View Only");
    const given = await admin.send("PUT", `/api/v1/user-security-role/${adminRoleId}`, bodyOf(role, { userIds: [...role.userIds, user.id] }));
    expect(given.status, given.text).toBe(200);
    expect(await roleOfUser(user.id)).toBe("Administrator");
    expect(decode((await admin.get(`/api/v1/user-security-role/${adminRoleId}`)).bytes)).toMatchObject({
      name: "Administrator",
      caseAccess: "FULL",
      isSystemDefined: true,
    });
  });

  it("keeps the firm's last administrator: moving them to another role is refused", async () => {
    const second = await client(DEMO.secondAdmin);
    const self = await sessionOf(DEMO.secondAdmin);
    const res = await second.send("POST", "/api/v1/user-security-role", roleBody("Former admins", [self.user.id], { case: "READ" }));
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ userIds: ["The firm needs at least one administrator. Give the Administrator role to someone else first."] });
    expect(await roleOfUser(self.user.id)).toBe("Administrator");
    expect((await db().selectFrom("security_role").select("id").where("name", "=", "Former admins").execute()).length).toBe(0);
  });

  it("deletes a role only once its users have another role; users leave a role only by being given another", async () => {
    const admin = await client(DEMO.admin);
    const user = await newUser("A", "View Only");
    const role = decode((await admin.send("POST", "/api/v1/user-security-role", roleBody("Short-lived", [user.id], { case: "READ" }))).bytes);

    const emptied = await admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { userIds: [(await newUser("A", "View Only")).id] }));
    expect(emptied.status).toBe(400);
    expect(emptied.body.fieldErrors).toEqual({
      userIds: ["A user leaves this role by being given another one: add them to that role, or change their role on their user page."],
    });

    const refused = await admin.del(`/api/v1/user-security-role/${role.id}`);
    expect([refused.status, refused.body.message]).toEqual([400, "This role still has users. Give them another role first."]);

    expect((await giveRole(admin, "Docketing", user.id)).status).toBe(200);
    expect(await roleOfUser(user.id)).toBe("Docketing");

    expect((await admin.del(`/api/v1/user-security-role/${role.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v1/user-security-role/${role.id}`)).status).toBe(404);
  });

  it("writes an AUDIT entry with every create, change and delete, and one for each user given the role", async () => {
    const admin = await client(DEMO.admin);
    const user = await newUser("A", "View Only");
    const role = decode((await admin.send("POST", "/api/v1/user-security-role", roleBody("Audited role", [user.id], { case: "READ" }))).bytes);
    expect(await audits(`created security role "Audited role" (${role.id})`)).toEqual([expect.stringContaining(`case: "READ"`)]);
    expect(await audits(`gave ${user.email} the role Audited role (was View Only)`)).toHaveLength(1);

    await admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { name: "Audited role 2", clientAccess: "READ" }));
    const changed = await audits(`changed security role "Audited role 2" (${role.id})`);
    expect(changed).toEqual([expect.stringContaining(`name: "Audited role" → "Audited role 2"`)]);
    expect(changed[0]).toContain(`client: "DENY" → "READ"`);
    expect(changed[0]).not.toContain("case:");

    // A refused write leaves no entry.
    await admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { name: "Manager" }));
    expect(await audits(`changed security role "Manager"`)).toEqual([]);

    await giveRole(admin, "View Only", user.id);
    expect((await admin.del(`/api/v1/user-security-role/${role.id}`)).status).toBe(204);
    expect(await audits(`deleted security role "Audited role 2" (${role.id})`)).toHaveLength(1);
  });

  it("answers 400 to a body that is not the message and 415 to one that is not binary", async () => {
    const admin = await client(DEMO.admin);
    const garbage = await admin.send("POST", "/api/v1/user-security-role", new Uint8Array([0xff, 0xff, 0xff, 0x0f]));
    expect(garbage.status).toBe(400);
    const json = await admin.send("POST", "/api/v1/user-security-role", new TextEncoder().encode(JSON.stringify({ name: "x" })), "application/json");
    expect(json.status).toBe(415);
  });

  it("is followed by the next request of a user already signed in", async () => {
    const admin = await client(DEMO.admin);
    const user = await newUser("A", "View Only");
    const role = decode((await admin.send("POST", "/api/v1/user-security-role", roleBody("Case readers now", [user.id], { case: "READ" }))).bytes);
    const signedIn = api(server().url, (await login(server().url, user.email)).access_token);
    expect((await signedIn.get("/api/v1/case/search")).status).toBe(200);
    expect((await signedIn.get("/auth/me")).body.userRole.caseAccess).toBe("READ");

    expect((await admin.send("PUT", `/api/v1/user-security-role/${role.id}`, bodyOf(role, { caseAccess: "DENY" }))).status).toBe(200);
    expect((await signedIn.get("/api/v1/case/search")).status).toBe(403);
    expect((await signedIn.get("/auth/me")).body.userRole.caseAccess).toBe("DENY");

    // Given another role through that role, as on the user page: their sessions end.
    await giveRole(admin, "Docketing", user.id);
    expect((await signedIn.get("/auth/me")).status).toBe(401);
    const again = api(server().url, (await login(server().url, user.email)).access_token);
    expect((await again.get("/auth/me")).body.userRole.inboxItemAccess).toBe("FULL");
  });
});
