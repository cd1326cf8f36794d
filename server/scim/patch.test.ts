import { describe, expect, it } from "vitest";
import { booleanOf, parsePath, patchOperations } from "./patch";
import { ScimError } from "./protocol";
import { type UserState, patchedState } from "./users";

// RFC 7644 §3.5.2 PATCH as Entra ID and Okta write it, read into one operation per attribute.

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const body = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

const user: UserState = {
  email: "dana@firm.test",
  givenName: "Dana",
  familyName: "Reyes",
  formatted: "Dana Reyes",
  displayName: "Dana",
  externalId: "ext-1",
  active: true,
};

function scimError(run: () => unknown): ScimError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error("no SCIM error");
}

describe("paths", () => {
  it("reads an attribute, a sub-attribute, a value filter and the schema's URN, in any case", () => {
    expect(parsePath("active")).toEqual({ attribute: "active", filter: undefined, sub: undefined, extension: false });
    expect(parsePath("name.givenName")).toMatchObject({ attribute: "name", sub: "givenname" });
    expect(parsePath('emails[type eq "work"].value')).toMatchObject({ attribute: "emails", filter: 'type eq "work"', sub: "value" });
    expect(parsePath('members[value eq "a]b"]')).toMatchObject({ attribute: "members", filter: 'value eq "a]b"' });
    expect(parsePath("urn:ietf:params:scim:schemas:core:2.0:User:userName")).toMatchObject({ attribute: "username", extension: false });
    expect(parsePath("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department")).toMatchObject({ attribute: "department", extension: true });
  });

  it("refuses a path it cannot read with invalidPath", () => {
    for (const path of ["", "na me", "name..given", "[x]", "name.given.name"]) expect(scimError(() => parsePath(path)).scimType).toBe("invalidPath");
  });
});

describe("operations", () => {
  it("takes the operation's name in any case (Entra ID's Replace)", () => {
    expect(patchOperations(body({ op: "Replace", path: "active", value: "False" }))).toEqual([
      { op: "replace", path: expect.objectContaining({ attribute: "active" }), value: "False" },
    ]);
    expect(patchOperations(body({ op: "ADD", path: "externalId", value: "x" }))[0]!.op).toBe("add");
  });

  it("turns a value object without a path into one operation per key (Okta)", () => {
    const ops = patchOperations(
      body({
        op: "replace",
        value: {
          active: false,
          "name.familyName": "Kim",
          "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "Tax" },
        },
      }),
    );
    expect(ops.map((op) => [op.path?.attribute, op.path?.sub, op.value])).toEqual([
      ["active", undefined, false],
      ["name", "familyname", "Kim"],
    ]);
  });

  it("refuses what RFC 7644 refuses, each with its scimType", () => {
    expect(scimError(() => patchOperations(body({ op: "move", path: "active", value: true }))).scimType).toBe("invalidSyntax");
    expect(scimError(() => patchOperations(body({ op: "remove" }))).scimType).toBe("noTarget");
    expect(scimError(() => patchOperations(body({ op: "replace", value: [1] }))).scimType).toBe("invalidValue");
    expect(scimError(() => patchOperations({ schemas: ["urn:other"], Operations: [{ op: "add", path: "a", value: 1 }] })).scimType).toBe("invalidSyntax");
    expect(scimError(() => patchOperations({ schemas: [PATCH_OP], Operations: [] })).scimType).toBe("invalidSyntax");
    expect(scimError(() => patchOperations(body({ op: "add", path: 7, value: 1 }))).scimType).toBe("invalidPath");
  });

  it("answers any malformed body with a SCIM error, never another error", () => {
    const bodies: unknown[] = [null, 1, "x", [], {}, { Operations: "x" }, { Operations: [null] }, { Operations: [1] }, body({}), body({ op: 1 })];
    for (const malformed of bodies) {
      expect(scimError(() => patchOperations(malformed)).status).toBe(400);
      expect(scimError(() => patchedState(user, malformed)).status).toBe(400);
    }
  });

  it("reads booleans as providers send them", () => {
    expect([true, false, "True", "false", " TRUE "].map((v) => booleanOf(v, "active"))).toEqual([true, false, true, false, true]);
    for (const v of ["yes", 1, null, undefined]) expect(scimError(() => booleanOf(v, "active")).scimType).toBe("invalidValue");
  });
});

describe("a user's state after a PATCH", () => {
  it("renames the user from a new given or family name unless the full name came with it", () => {
    expect(patchedState(user, body({ op: "Replace", path: "name.familyName", value: "Kim" }))).toMatchObject({ familyName: "Kim", formatted: "Dana Kim" });
    expect(patchedState(user, body({ op: "replace", path: "name", value: { givenName: "D.", formatted: "Dr. Dana Reyes" } }))).toMatchObject({
      givenName: "D.",
      formatted: "Dr. Dana Reyes",
    });
  });

  it("removes what may be removed and refuses the rest", () => {
    expect(patchedState(user, body({ op: "remove", path: "externalId" })).externalId).toBeNull();
    expect(patchedState(user, body({ op: "remove", path: "displayName" })).displayName).toBe("Dana Reyes");
    expect(scimError(() => patchedState(user, body({ op: "remove", path: "userName" }))).scimType).toBe("mutability");
    expect(scimError(() => patchedState(user, body({ op: "remove", path: "active" }))).scimType).toBe("mutability");
  });

  it("takes a new userName only as an e-mail address, lower-cased", () => {
    expect(patchedState(user, body({ op: "replace", path: "userName", value: "Dana.R@Firm.test" })).email).toBe("dana.r@firm.test");
    expect(scimError(() => patchedState(user, body({ op: "replace", path: "userName", value: "dana" }))).scimType).toBe("invalidValue");
  });

  it("leaves alone attributes the user record has no place for, and applies operations in order", () => {
    const after = patchedState(
      user,
      body(
        { op: "Add", path: "title", value: "Partner" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "other@firm.test" },
        { op: "Replace", path: "active", value: "False" },
        { op: "Replace", path: "active", value: "True" },
      ),
    );
    expect(after).toEqual(user);
  });
});
