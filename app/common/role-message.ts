import { type AccessLevel, isAccessLevel, lowerOf } from "./access";
import { protoType } from "../../proto/codec.server";

// The UserSecurityRole message (proto/security_role.proto) is the one declaration of what a role
// can grant. The API stores a role as levels per resource type and field; the console edits the
// same levels. Both translate between the two forms here.

/** What a role stores: per resource type a level and, optionally, per-field levels. */
export type RolePermissions = Record<string, { access: AccessLevel; fields?: Record<string, AccessLevel> }>;

export interface ResourceType {
  name: string;
  fields: string[];
}

let cached: ResourceType[] | undefined;

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (snakeName: string) => snakeName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The resource types and their fields, in the order of the message. */
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

/** The message's access fields of a resource type and of its field permissions. */
export const accessKeyOf = (type: string) => `${camel(type)}Access`;
export const fieldPermissionsKeyOf = (type: string) => `${camel(type)}FieldPermissions`;
export const fieldAccessKeyOf = (field: string) => `${camel(field)}Access`;

/**
 * The levels a decoded message holds. A field never exceeds its resource: a higher field level
 * is stored as the resource's. A type without field permissions in the message names no field,
 * so its fields take the resource's level.
 */
export function permissionsOfMessage(message: Record<string, unknown>): RolePermissions {
  const out: RolePermissions = {};
  for (const type of resourceTypes()) {
    const raw = message[accessKeyOf(type.name)];
    const access: AccessLevel = isAccessLevel(raw) ? raw : "DENY";
    const detail = message[fieldPermissionsKeyOf(type.name)] as Record<string, unknown> | null | undefined;
    const fields: Record<string, AccessLevel> = {};
    if (detail && typeof detail === "object") {
      for (const field of type.fields) {
        const level = detail[fieldAccessKeyOf(field)];
        fields[field] = lowerOf(access, isAccessLevel(level) ? level : "DENY");
      }
    }
    out[type.name] = type.fields.length && detail ? { access, fields } : { access };
  }
  return out;
}

/** The admin role is the system-defined role named admin (or Administrator). */
export function isAdminRole(role: { name: string; is_system_defined: number | boolean }): boolean {
  return Boolean(role.is_system_defined) && /^admin(istrator)?$/i.test(role.name);
}
