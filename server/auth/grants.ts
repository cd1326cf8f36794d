import { type AccessLevel } from "../../app/common/access";
import { type RolePermissions, fieldAccess, isAdminRole, parsePermissions, resourceAccess, resourceTypes } from "./permissions";

// Nobody grants more than they hold: a role given to a user (or a role's contents) must not
// exceed, resource by resource and field by field, the role of whoever gives it.

const rank: Record<AccessLevel, number> = { DENY: 0, READ: 1, FULL: 2 };

/** The resources and fields of the role message, and any others either role names. */
function comparedResources(a: RolePermissions, b: RolePermissions): { name: string; fields: string[] }[] {
  const known = resourceTypes().map((t) => ({ name: t.name, fields: [...t.fields] }));
  for (const perms of [a, b]) {
    for (const [name, rule] of Object.entries(perms)) {
      let entry = known.find((k) => k.name === name);
      if (!entry) known.push((entry = { name, fields: [] }));
      for (const field of Object.keys(rule.fields ?? {})) if (!entry.fields.includes(field)) entry.fields.push(field);
    }
  }
  return known;
}

/** Whether every level `granted` holds is at most the level `held` holds. */
export function grantsWithin(held: RolePermissions, granted: RolePermissions): boolean {
  return comparedResources(held, granted).every(
    ({ name, fields }) =>
      rank[resourceAccess(granted, name)] <= rank[resourceAccess(held, name)] &&
      fields.every((f) => rank[fieldAccess(granted, name, f)] <= rank[fieldAccess(held, name, f)]),
  );
}

export interface StoredRole {
  name: string;
  is_system_defined: number | boolean;
  permissions: string;
}

/** Whether a caller may give this role to someone: administrators only give the admin role. */
export function mayGrantRole(caller: { isAdmin: boolean; permissions: RolePermissions }, role: StoredRole): boolean {
  if (isAdminRole(role) && !caller.isAdmin) return false;
  return grantsWithin(caller.permissions, parsePermissions(role.permissions));
}
