import { ACCESS_KEYS, type AccessLevel, type UserRoleMap, isAccessLevel, lowerOf } from "../../app/common/access";
import { type RolePermissions, accessKeyOf, fieldAccessKeyOf, fieldPermissionsKeyOf, resourceTypes } from "../../app/common/role-message";

export { type RolePermissions, type ResourceType, isAdminRole, permissionsOfMessage, resourceTypes } from "../../app/common/role-message";

export function parsePermissions(json: string): RolePermissions {
  const raw: unknown = JSON.parse(json);
  const out: RolePermissions = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [resource, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!value || typeof value !== "object") continue;
    const { access, fields } = value as { access?: unknown; fields?: Record<string, unknown> };
    if (!isAccessLevel(access)) continue;
    const fieldLevels: Record<string, AccessLevel> = {};
    for (const [f, level] of Object.entries(fields ?? {})) if (isAccessLevel(level)) fieldLevels[f] = level;
    out[resource] = { access, fields: fieldLevels };
  }
  return out;
}

/** Deny by default: a resource the role does not name is DENY. */
export function resourceAccess(perms: RolePermissions, resource: string): AccessLevel {
  return perms[resource]?.access ?? "DENY";
}

/** A field's level never exceeds its resource's level; an unnamed field takes the resource's. */
export function fieldAccess(perms: RolePermissions, resource: string, field: string): AccessLevel {
  const top = resourceAccess(perms, resource);
  const own = perms[resource]?.fields?.[field];
  return own ? lowerOf(top, own) : top;
}

export function userRoleMap(perms: RolePermissions): UserRoleMap {
  const map: UserRoleMap = {};
  for (const [key, resource] of Object.entries(ACCESS_KEYS)) map[key as keyof typeof ACCESS_KEYS] = resourceAccess(perms, resource);
  return map;
}

export type DefaultRoleName = "Administrator" | "Manager" | "Docketing" | "View Only";

const FIRM_SETTINGS = new Set(["firm"]);
const PEOPLE = new Set(["user"]);
const DOCKETING_FULL = new Set(["inbox_item", "envelope", "document", "case", "matter", "client"]);

/** The four roles every firm starts with (see the sign-in issue and spec §6). */
export function defaultRolePermissions(name: DefaultRoleName): RolePermissions {
  const perms: RolePermissions = {};
  for (const { name: resource } of resourceTypes()) {
    let access: AccessLevel;
    switch (name) {
      case "Administrator":
        access = "FULL";
        break;
      case "Manager":
        access = FIRM_SETTINGS.has(resource) ? "READ" : "FULL";
        break;
      case "Docketing":
        access = FIRM_SETTINGS.has(resource) || PEOPLE.has(resource) ? "DENY" : DOCKETING_FULL.has(resource) ? "FULL" : "READ";
        break;
      case "View Only":
        access = FIRM_SETTINGS.has(resource) || PEOPLE.has(resource) ? "DENY" : "READ";
        break;
    }
    perms[resource] = { access };
  }
  return perms;
}

/** The binary UserSecurityRole message, with every field level filled in explicitly. */
export function roleMessage(
  role: { id: string; name: string; is_system_defined: number; created_at: number; updated_at: number },
  perms: RolePermissions,
  userIds: string[],
): Record<string, unknown> {
  const msg: Record<string, unknown> = {
    id: role.id,
    createdAt: role.created_at,
    updatedAt: role.updated_at,
    name: role.name,
    userIds,
    isSystemDefined: Boolean(role.is_system_defined),
  };
  for (const type of resourceTypes()) {
    msg[accessKeyOf(type.name)] = resourceAccess(perms, type.name);
    if (type.fields.length) {
      msg[fieldPermissionsKeyOf(type.name)] = Object.fromEntries(type.fields.map((f) => [fieldAccessKeyOf(f), fieldAccess(perms, type.name, f)]));
    }
  }
  return msg;
}
