import { ACCESS_KEYS, type AccessLevel, type UserRoleMap, isAccessLevel, lowerOf } from "../../app/common/access";
import { protoType } from "../../app/common/proto.server";

/** What a role stores: per resource type a level and, optionally, per-field levels. */
export type RolePermissions = Record<string, { access: AccessLevel; fields?: Record<string, AccessLevel> }>;

export interface ResourceType {
  name: string;
  fields: string[];
}

let cached: ResourceType[] | undefined;

/**
 * The resource types and their fields, read from the UserSecurityRole message: the .proto is
 * the one declaration of what a role can grant.
 */
export function resourceTypes(): ResourceType[] {
  if (cached) return cached;
  const role = protoType("UserSecurityRole");
  const types: ResourceType[] = [];
  for (const field of role.fieldsArray) {
    if (field.type !== "AccessType") continue;
    const name = field.name.replace(/Access$/, "");
    const detail = role.fields[`${name}FieldPermissions`];
    const fields = detail ? (detail.resolve().resolvedType as { fieldsArray: { name: string }[] }).fieldsArray.map((f) => f.name.replace(/Access$/, "")) : [];
    types.push({ name: snake(name), fields: fields.map(snake) });
  }
  cached = types;
  return types;
}

function snake(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function camel(snakeName: string): string {
  return snakeName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

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

/** The admin role is the system-defined role named admin (or Administrator). */
export function isAdminRole(role: { name: string; is_system_defined: number | boolean }): boolean {
  return Boolean(role.is_system_defined) && /^admin(istrator)?$/i.test(role.name);
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
    const key = camel(type.name);
    msg[`${key}Access`] = resourceAccess(perms, type.name);
    if (type.fields.length) {
      msg[`${key}FieldPermissions`] = Object.fromEntries(type.fields.map((f) => [`${camel(f)}Access`, fieldAccess(perms, type.name, f)]));
    }
  }
  return msg;
}
