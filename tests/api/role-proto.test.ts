import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Decoded with protobufjs straight from the .proto file, not through the app's helper, so a
// mistake shared by both sides of the app cannot hide here.
const UserSecurityRole = protobuf.loadSync(fileURLToPath(new URL("../../proto/security_role.proto", import.meta.url))).lookupType("ecfx.UserSecurityRole");

type Role = Record<string, unknown> & { id: string; name: string; userIds: string[]; isSystemDefined: boolean };

function decodeRole(bytes: Uint8Array): Role {
  return UserSecurityRole.toObject(UserSecurityRole.decode(bytes), { enums: String, longs: Number, defaults: true, arrays: true }) as Role;
}

const accessFields = UserSecurityRole.fieldsArray.filter((f) => f.type === "AccessType");
const detailFields = UserSecurityRole.fieldsArray.filter((f) => f.type.endsWith("FieldPermissions"));

describe.each(backends)("GET /api/v1/user-security-role/:id as protobuf (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  const fetchRole = async (email: string, roleId?: string) => {
    const session = await sessionOf(email);
    const res = await api(server().url, session.access_token).get(`/api/v1/user-security-role/${roleId ?? session.user.securityRoleId}`);
    return { session, res };
  };

  it("sends the Administrator role as a binary message with every level FULL", async () => {
    const { session, res } = await fetchRole(DEMO.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-protobuf/);
    const role = decodeRole(res.bytes);
    expect(role).toMatchObject({ id: session.user.securityRoleId, name: "Administrator", isSystemDefined: true });
    expect(role.userIds).toEqual([session.user.id]);
    expect(Number(role.createdAt)).toBeGreaterThan(0);
    expect(Number(role.updatedAt)).toBeGreaterThanOrEqual(Number(role.createdAt));

    expect(accessFields.length).toBe(38);
    for (const field of accessFields) expect([field.name, role[field.name]]).toEqual([field.name, "FULL"]);
    for (const field of detailFields) {
      const detail = role[field.name] as Record<string, string> | null;
      expect(detail, field.name).toBeTruthy();
      const levels = Object.values(detail!);
      expect(levels.length, field.name).toBeGreaterThan(0);
      for (const level of levels) expect(level).toBe("FULL");
    }
    expect((role.caseFieldPermissions as Record<string, string>).caseNumberAccess).toBe("FULL");
  });

  it("sends View Only its own role: READ cases, no firm access, fields no higher than their resource", async () => {
    const { session, res } = await fetchRole(DEMO.viewOnly);
    expect(res.status).toBe(200);
    const role = decodeRole(res.bytes);
    expect(role).toMatchObject({ name: "View Only", isSystemDefined: false, caseAccess: "READ", firmAccess: "DENY", userAccess: "DENY" });
    expect(role.userIds).toEqual([session.user.id]);
    const caseFields = role.caseFieldPermissions as Record<string, string>;
    expect(caseFields.caseNumberAccess).toBe("READ");
    expect(Object.values(caseFields).every((level) => level === "READ")).toBe(true);
    for (const field of accessFields) expect(["READ", "DENY"]).toContain(role[field.name]);
  });

  it("sends the Docketing role with its mixed levels", async () => {
    const { res } = await fetchRole(DEMO.docketing);
    const role = decodeRole(res.bytes);
    expect(role).toMatchObject({ name: "Docketing", caseAccess: "FULL", judgeAccess: "READ", firmAccess: "DENY", userAccess: "DENY" });
    expect((role.judgeFieldPermissions as Record<string, string>).nameAccess).toBe("READ");
  });

  it("lets a firm reader (Manager) read another role of the firm", async () => {
    const admin = await sessionOf(DEMO.admin);
    const { res } = await fetchRole(DEMO.manager, admin.user.securityRoleId);
    expect(res.status).toBe(200);
    expect(decodeRole(res.bytes).name).toBe("Administrator");
  });

  it("refuses View Only the Administrator role", async () => {
    const admin = await sessionOf(DEMO.admin);
    const { res } = await fetchRole(DEMO.viewOnly, admin.user.securityRoleId);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("You do not have access to this.");
  });

  it("does not find a role of another firm, nor an unknown id", async () => {
    const second = await sessionOf(DEMO.secondAdmin);
    expect((await fetchRole(DEMO.admin, second.user.securityRoleId)).res.status).toBe(404);
    expect((await fetchRole(DEMO.admin, "no-such-role")).res.status).toBe(404);
  });

  it("requires a signed-in caller", async () => {
    const admin = await sessionOf(DEMO.admin);
    expect((await api(server().url).get(`/api/v1/user-security-role/${admin.user.securityRoleId}`)).status).toBe(401);
  });
});
