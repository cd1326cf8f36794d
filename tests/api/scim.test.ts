import { describe, expect, it } from "vitest";
import { DEMO, type RunningApi, api, backends, login, useApi } from "./harness";

// SCIM 2.0 provisioning (docs/scim.md, decision 101) at /scim/v2, driven as identity providers
// drive it. The compliance checks follow two public validators: Microsoft's SCIM Validator
// ("Tutorial: Validate a SCIM endpoint", learn.microsoft.com/entra/identity/app-provisioning/
// scim-validator-tutorial: create, get and filter on userName, PATCH with Entra ID's "Replace" and
// string booleans, disable, delete, groups) and Okta's "SCIM 2.0 SPEC Test" Runscope suite
// (developer.okta.com/standards/SCIM/SCIMFiles: list with count=1&startIndex=1 as a ListResponse,
// filter userName eq on a known and an unknown name, create, 409 on the same userName again,
// 404 on an unknown id, all in application/scim+json).

const SCIM = "application/scim+json";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const SECOND_HOST = "second.localhost";

/** A SCIM client with a firm's token, reaching the API as the console forwards it: to `host`. */
function scim(server: () => RunningApi, token: string, host?: string) {
  const headers = { "content-type": SCIM, accept: SCIM, ...(host ? { "x-forwarded-host": host } : {}) };
  const client = api(server().url, token);
  return {
    token,
    get: (route: string) => client.get(`/scim/v2${route}`, headers),
    post: (route: string, json: unknown) => client.request("POST", `/scim/v2${route}`, { body: JSON.stringify(json), headers }),
    put: (route: string, json: unknown) => client.request("PUT", `/scim/v2${route}`, { body: JSON.stringify(json), headers }),
    patch: (route: string, operations: unknown[]) =>
      client.request("PATCH", `/scim/v2${route}`, { body: JSON.stringify({ schemas: [PATCH_OP], Operations: operations }), headers }),
    delete: (route: string) => client.request("DELETE", `/scim/v2${route}`, { headers }),
  };
}

async function newToken(server: () => RunningApi, adminEmail: string, label = "Entra ID"): Promise<string> {
  const admin = await login(server().url, adminEmail);
  const made = await api(server().url, admin.access_token).post("/api/v1/scim/tokens", { label });
  expect(made.status).toBe(201);
  return made.body.token as string;
}

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  externalId: `ext-${userName}`,
  name: { givenName: "Dana", familyName: "Reyes" },
  emails: [{ type: "work", value: userName, primary: true }],
  active: true,
  ...extra,
});

function expectScimError(res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, scimType?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain(SCIM);
  expect(res.body.schemas).toEqual([ERROR]);
  expect(res.body.status).toBe(String(status));
  if (scimType) expect(res.body.scimType).toBe(scimType);
  expect(typeof res.body.detail).toBe("string");
}

async function userIdOf(server: () => RunningApi, email: string): Promise<string> {
  return (await server().ctx.database.db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

async function sessionOf(server: () => RunningApi, userId: string) {
  const user = await server()
    .ctx.database.db.selectFrom("app_user")
    .select(["id", "firm_id", "token_version"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const { issueTokens } = await import("../../server/auth/tokens");
  return issueTokens(server().ctx, user);
}

async function roleOf(server: () => RunningApi, userId: string): Promise<string> {
  const row = await server()
    .ctx.database.db.selectFrom("app_user")
    .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
    .select("security_role.name")
    .where("app_user.id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.name;
}

describe.each(backends)("SCIM provisioning (%s)", (backend) => {
  const server = useApi({ backend });

  describe("a token opens its own firm only", () => {
    it("answers 404 to firm A's token asking for a user or group of firm B, and changes nothing there", async () => {
      const a = scim(server, await newToken(server, DEMO.admin));
      const secondAdmin = await userIdOf(server, DEMO.secondAdmin);
      expectScimError(await a.get(`/Users/${secondAdmin}`), 404);
      expectScimError(await a.put(`/Users/${secondAdmin}`, newUser(DEMO.secondAdmin, { active: false })), 404);
      expectScimError(await a.patch(`/Users/${secondAdmin}`, [{ op: "replace", path: "active", value: false }]), 404);
      expectScimError(await a.delete(`/Users/${secondAdmin}`), 404);
      const listed = await a.get(`/Users?filter=${encodeURIComponent(`userName eq "${DEMO.secondAdmin}"`)}`);
      expect(listed.body.totalResults).toBe(0);
      // Nor can a group of firm A take firm B's user in.
      expectScimError(await a.post("/Groups", { schemas: [GROUP], displayName: "Borrowers", members: [{ value: secondAdmin }] }), 400, "invalidValue");
      expect(await server().ctx.database.db.selectFrom("scim_group_member").select("user_id").where("user_id", "=", secondAdmin).execute()).toEqual([]);
      const b = scim(server, await newToken(server, DEMO.secondAdmin), SECOND_HOST);
      const group = await b.post("/Groups", { schemas: [GROUP], displayName: "Firm B only" });
      expect(group.status).toBe(201);
      expectScimError(await a.get(`/Groups/${group.body.id}`), 404);
      expectScimError(await a.delete(`/Groups/${group.body.id}`), 404);
      expect((await b.get(`/Users/${secondAdmin}`)).body.active).toBe(true);
    });

    it("answers 401 to firm A's token on firm B's host, to firm B's token on firm A's, and to no or a revoked token", async () => {
      const tokenA = await newToken(server, DEMO.admin);
      const tokenB = await newToken(server, DEMO.secondAdmin);
      expectScimError(await scim(server, tokenA, SECOND_HOST).get("/Users"), 401);
      expectScimError(await scim(server, tokenA, SECOND_HOST).get("/ServiceProviderConfig"), 401);
      expectScimError(await scim(server, tokenB).get("/Users"), 401);
      expectScimError(await scim(server, "not-a-token").get("/Users"), 401);
      expect((await scim(server, tokenB, SECOND_HOST).get("/Users")).status).toBe(200);

      const admin = await login(server().url, DEMO.admin);
      const settings = await api(server().url, admin.access_token).get("/api/v1/scim");
      const listed = settings.body.tokens as { id: string; label: string }[];
      expect(JSON.stringify(settings.body)).not.toContain(tokenA);
      const stored = await server().ctx.database.db.selectFrom("scim_token").select("token_hash").execute();
      expect(stored.map((row) => row.token_hash)).not.toContain(tokenA);
      for (const token of listed) expect((await api(server().url, admin.access_token).request("DELETE", `/api/v1/scim/tokens/${token.id}`)).status).toBe(204);
      expectScimError(await scim(server, tokenA).get("/Users"), 401);
      // Firm B's token lives on: firm A's administrator revoked only firm A's.
      expect((await scim(server, tokenB, SECOND_HOST).get("/Users")).status).toBe(200);
    });

    it("lets only administrators manage tokens", async () => {
      const manager = await login(server().url, DEMO.manager);
      expect((await api(server().url, manager.access_token).post("/api/v1/scim/tokens", { label: "mine" })).status).toBe(403);
      expect((await api(server().url, manager.access_token).get("/api/v1/scim")).status).toBe(403);
    });
  });

  describe("compliance checks of the public validators", () => {
    it("serves the discovery endpoints in application/scim+json", async () => {
      const client = scim(server, await newToken(server, DEMO.admin));
      const config = await client.get("/ServiceProviderConfig");
      expect(config.status).toBe(200);
      expect(config.headers.get("content-type")).toContain(SCIM);
      expect(config.body.patch.supported).toBe(true);
      expect(config.body.filter).toMatchObject({ supported: true, maxResults: 200 });
      expect(config.body.authenticationSchemes[0].type).toBe("oauthbearertoken");
      const types = await client.get("/ResourceTypes");
      expect(types.body.schemas).toEqual([LIST]);
      expect(types.body.Resources.map((t: { id: string }) => t.id)).toEqual(["User", "Group"]);
      expect((await client.get("/ResourceTypes/User")).body.endpoint).toBe("/Users");
      const schemas = await client.get("/Schemas");
      expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([USER, GROUP]);
      const userSchema = await client.get(`/Schemas/${USER}`);
      expect(userSchema.body.attributes.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(["userName", "name", "emails", "active"]));
      expectScimError(await client.get("/Schemas/urn:nothing"), 404);
      expectScimError(await client.get("/Nothing"), 404);
    });

    it("creates, gets, filters, pages, replaces and deletes a user", async () => {
      const client = scim(server, await newToken(server, DEMO.admin));
      const created = await client.post("/Users", newUser("dana.reyes@demo.ecfx.test"));
      expect(created.status).toBe(201);
      expect(created.headers.get("content-type")).toContain(SCIM);
      const id = created.body.id as string;
      expect(created.headers.get("location")).toMatch(new RegExp(`/scim/v2/Users/${id}$`));
      expect(created.body).toMatchObject({
        schemas: [USER],
        userName: "dana.reyes@demo.ecfx.test",
        externalId: "ext-dana.reyes@demo.ecfx.test",
        name: { givenName: "Dana", familyName: "Reyes", formatted: "Dana Reyes" },
        emails: [{ value: "dana.reyes@demo.ecfx.test", primary: true }],
        active: true,
        meta: { resourceType: "User" },
      });
      // A provisioned user starts with View Only: no group has given them anything.
      expect(await roleOf(server, id)).toBe("View Only");
      expect((await client.get(`/Users/${id}`)).body.userName).toBe("dana.reyes@demo.ecfx.test");

      expectScimError(await client.post("/Users", newUser("Dana.Reyes@demo.ecfx.test")), 409, "uniqueness");
      expectScimError(await client.get("/Users/00000000-0000-0000-0000-000000000000"), 404);
      expectScimError(await client.post("/Users", { schemas: [USER], userName: "not an address" }), 400, "invalidValue");
      // Okta sends a charset with the type, some clients plain JSON: both are read.
      const token = client.token;
      for (const type of [`${SCIM}; charset=utf-8`, "application/json"]) {
        const res = await api(server().url, token).request("POST", "/scim/v2/Users", {
          body: JSON.stringify(newUser(`typed-${type.length}@demo.ecfx.test`)),
          headers: { "content-type": type },
        });
        expect(res.status).toBe(201);
      }
      const broken = await api(server().url, token).request("POST", "/scim/v2/Users", { body: "{", headers: { "content-type": SCIM } });
      expectScimError(broken, 400, "invalidSyntax");

      const found = await client.get(`/Users?filter=${encodeURIComponent('userName eq "DANA.REYES@demo.ecfx.test"')}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      expect(found.body.Resources[0].id).toBe(id);
      const none = await client.get(`/Users?filter=${encodeURIComponent('userName eq "nobody-here@demo.ecfx.test"')}`);
      expect(none.body).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] });
      expectScimError(await client.get(`/Users?filter=${encodeURIComponent("userName eq")}`), 400, "invalidFilter");

      const all = await client.get("/Users");
      const total = all.body.totalResults as number;
      expect(total).toBeGreaterThanOrEqual(5);
      const first = await client.get("/Users?count=1&startIndex=1");
      expect(first.body).toMatchObject({ totalResults: total, startIndex: 1, itemsPerPage: 1 });
      const second = await client.get("/Users?count=2&startIndex=2");
      expect(second.body.itemsPerPage).toBe(2);
      expect(second.body.Resources.map((u: { id: string }) => u.id)).toEqual(all.body.Resources.slice(1, 3).map((u: { id: string }) => u.id));
      expect((await client.get(`/Users?startIndex=${total + 1}`)).body).toMatchObject({ totalResults: total, itemsPerPage: 0 });

      const replaced = await client.put(
        `/Users/${id}`,
        newUser("dana.reyes@demo.ecfx.test", { name: { givenName: "Dana", familyName: "Reyes-Kim" }, externalId: "ext-2" }),
      );
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ name: { familyName: "Reyes-Kim", formatted: "Dana Reyes-Kim" }, externalId: "ext-2" });
      expect((await server().ctx.database.db.selectFrom("app_user").select("full_name").where("id", "=", id).executeTakeFirstOrThrow()).full_name).toBe(
        "Dana Reyes-Kim",
      );

      const session = await sessionOf(server, id);
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(200);
      expect((await client.delete(`/Users/${id}`)).status).toBe(204);
      expectScimError(await client.get(`/Users/${id}`), 404);
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(401);
      expect((await api(server().url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: session.refresh_token })).status).toBe(400);

      const events = await server()
        .ctx.database.db.selectFrom("event_log")
        .select("detail")
        .where("event", "=", "user provisioned")
        .where("detail", "like", "%dana.reyes@demo.ecfx.test%")
        .execute();
      const details = events.map((e) => e.detail).join("\n");
      expect(details).toContain("created the user dana.reyes@demo.ecfx.test");
      expect(details).toContain("changed name, displayName, externalId of the user dana.reyes@demo.ecfx.test");
      expect(details).toContain("deleted the user dana.reyes@demo.ecfx.test");
    });

    it("takes Entra ID's PATCH (capitalised Replace, \"False\" as a string) and ends the user's sessions on deactivation", async () => {
      const client = scim(server, await newToken(server, DEMO.admin));
      const id = (await client.post("/Users", newUser("entra.user@demo.ecfx.test"))).body.id as string;
      const renamed = await client.patch(`/Users/${id}`, [
        { op: "Replace", path: "name.givenName", value: "Eli" },
        { op: "Replace", path: "name.familyName", value: "Navarro" },
        { op: "Add", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Litigation" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "entra.user@demo.ecfx.test" },
      ]);
      expect(renamed.status).toBe(200);
      expect(renamed.body.name).toMatchObject({ givenName: "Eli", familyName: "Navarro", formatted: "Eli Navarro" });

      const session = await sessionOf(server, id);
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(200);
      const off = await client.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "False" }]);
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(401);
      expect((await api(server().url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: session.refresh_token })).status).toBe(400);
      const filtered = await client.get(`/Users?filter=${encodeURIComponent('userName eq "entra.user@demo.ecfx.test"')}`);
      expect(filtered.body.Resources[0].active).toBe(false);
      expect((await client.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "True" }])).body.active).toBe(true);
      expectScimError(await client.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "maybe" }]), 400, "invalidValue");
      expectScimError(await client.patch(`/Users/${id}`, [{ op: "Move", path: "active", value: true }]), 400, "invalidSyntax");
    });

    it("takes Okta's PATCH (a value object without a path) and PUT, and a deactivated user cannot sign in", async () => {
      const client = scim(server, await newToken(server, DEMO.admin, "Okta"));
      // Okta finds the firm's existing user by userName and manages it from then on.
      const found = await client.get(`/Users?filter=${encodeURIComponent(`userName eq "${DEMO.docketing}"`)}`);
      const id = found.body.Resources[0].id as string;
      await login(server().url, DEMO.docketing);
      const off = await client.patch(`/Users/${id}`, [{ op: "replace", value: { active: false } }]);
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      expect((await api(server().url).post("/auth/login", { username: DEMO.docketing, password: "Demo-Passw0rd!" })).status).toBe(401);
      const back = await client.put(`/Users/${id}`, { ...found.body.Resources[0], active: true, name: { givenName: "Dee", familyName: "Docket" } });
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ active: true, name: { givenName: "Dee", familyName: "Docket" } });
      await login(server().url, DEMO.docketing);
      const events = await server().ctx.database.db.selectFrom("event_log").select("detail").where("event", "=", "user provisioned").execute();
      expect(events.map((e) => e.detail)).toEqual(
        expect.arrayContaining([
          `The identity provider deactivated the user ${DEMO.docketing}; their sessions ended`,
          `The identity provider reactivated the user ${DEMO.docketing}`,
        ]),
      );
    });
  });

  describe("the firm keeps an administrator", () => {
    it("refuses to deactivate or delete the last administrator, as the console refuses it", async () => {
      const b = scim(server, await newToken(server, DEMO.secondAdmin), SECOND_HOST);
      const adminId = await userIdOf(server, DEMO.secondAdmin);
      const refused = await b.patch(`/Users/${adminId}`, [{ op: "Replace", path: "active", value: "False" }]);
      expectScimError(refused, 400);
      expect(refused.body.detail).toBe("The firm needs at least one administrator. Give the Administrator role to someone else first.");
      expectScimError(await b.delete(`/Users/${adminId}`), 400);
      expect((await b.get(`/Users/${adminId}`)).body.active).toBe(true);
      await login(server().url, DEMO.secondAdmin);
    });
  });

  describe("groups", () => {
    it("give a role only through the firm's explicit mapping, never above what the firm set", async () => {
      const client = scim(server, await newToken(server, DEMO.admin));
      const member = (await client.post("/Users", newUser("group.member@demo.ecfx.test"))).body.id as string;
      const other = (await client.post("/Users", newUser("group.other@demo.ecfx.test"))).body.id as string;
      // A group named like the admin role gives nothing until the firm maps it.
      const admins = await client.post("/Groups", { schemas: [GROUP], displayName: "Administrator", externalId: "g-1", members: [{ value: member }] });
      expect(admins.status).toBe(201);
      expect(admins.body.members.map((m: { value: string }) => m.value)).toEqual([member]);
      expect(await roleOf(server, member)).toBe("View Only");
      expectScimError(await client.post("/Groups", { schemas: [GROUP], displayName: "Administrator" }), 409, "uniqueness");

      const admin = await login(server().url, DEMO.admin);
      const consoleApi = api(server().url, admin.access_token);
      const roles = (await consoleApi.get("/api/v1/scim")).body.roles as { id: string; name: string }[];
      const manager = roles.find((r) => r.name === "Manager")!;
      const session = await sessionOf(server, member);
      const mapped = await consoleApi.put(`/api/v1/scim/groups/${admins.body.id}`, { security_role_id: manager.id });
      expect(mapped.status).toBe(200);
      expect(await roleOf(server, member)).toBe("Manager");
      // A new role ends the user's sessions, as a role change on the Users page does.
      expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(401);

      // Entra ID adds and removes members with a value list.
      expect((await client.patch(`/Groups/${admins.body.id}`, [{ op: "Add", path: "members", value: [{ value: other }] }])).status).toBe(204);
      expect(await roleOf(server, other)).toBe("Manager");
      expect((await client.patch(`/Groups/${admins.body.id}`, [{ op: "Remove", path: "members", value: [{ value: other }] }])).status).toBe(204);
      expect(await roleOf(server, other)).toBe("View Only");
      // Okta removes one with a filtered path and renames with a value object.
      await client.patch(`/Groups/${admins.body.id}`, [{ op: "remove", path: `members[value eq "${member}"]` }]);
      expect(await roleOf(server, member)).toBe("View Only");
      await client.patch(`/Groups/${admins.body.id}`, [{ op: "replace", value: { id: admins.body.id, displayName: "Managers" } }]);
      const group = await client.get(`/Groups/${admins.body.id}`);
      expect(group.body).toMatchObject({ displayName: "Managers", members: [] });
      const byName = await client.get(`/Groups?filter=${encodeURIComponent('displayName eq "managers"')}&excludedAttributes=members`);
      expect(byName.body.totalResults).toBe(1);
      expect(byName.body.Resources[0].members).toBeUndefined();
      expect((await client.delete(`/Groups/${admins.body.id}`)).status).toBe(204);
      expectScimError(await client.get(`/Groups/${admins.body.id}`), 404);
    });

    it("refuse to demote the last administrator through a group, and undo the change", async () => {
      const b = scim(server, await newToken(server, DEMO.secondAdmin), SECOND_HOST);
      const adminId = await userIdOf(server, DEMO.secondAdmin);
      const admin = await login(server().url, DEMO.secondAdmin);
      const consoleApi = api(server().url, admin.access_token);
      const group = await b.post("/Groups", { schemas: [GROUP], displayName: "Partners", members: [{ value: adminId }] });
      const roles = (await consoleApi.get("/api/v1/scim")).body.roles as { id: string; name: string }[];
      expect(
        (await consoleApi.put(`/api/v1/scim/groups/${group.body.id}`, { security_role_id: roles.find((r) => r.name === "Administrator")!.id })).status,
      ).toBe(200);
      expect(await roleOf(server, adminId)).toBe("Administrator");
      const refused = await b.patch(`/Groups/${group.body.id}`, [{ op: "Remove", path: "members", value: [{ value: adminId }] }]);
      expectScimError(refused, 400);
      expect(refused.body.detail).toBe("The firm needs at least one administrator. Give the Administrator role to someone else first.");
      expect((await b.get(`/Groups/${group.body.id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([adminId]);
      expect(await roleOf(server, adminId)).toBe("Administrator");
    });
  });
});
