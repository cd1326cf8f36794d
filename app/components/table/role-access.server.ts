import { type AccessLevel, isAccessLevel, lowerOf } from "../../common/access";
import type { ApiClient, Me } from "../../utils/auth.server";
import { decodeMessage } from "../../common/proto.server";

/** A role's level on one resource type and on each of its fields, as the API enforces them. */
export interface ResourceAccess {
  level: AccessLevel;
  field(name: string): AccessLevel;
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * Reads the user's own role (the binary UserSecurityRole message). A field the message does not
 * name takes the resource's level, as on the server; a field never exceeds its resource.
 */
export async function resourceAccess(api: ApiClient, me: Me, resource: string, fallback: AccessLevel): Promise<ResourceAccess> {
  const response = await api.raw(`/api/v1/user-security-role/${encodeURIComponent(me.securityRoleId)}`, { accept: "application/x-protobuf" });
  if (!response.ok) return { level: fallback, field: () => fallback };
  const role = decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer()));
  const top = role[`${camel(resource)}Access`];
  const level = isAccessLevel(top) ? top : fallback;
  const fields = (role[`${camel(resource)}FieldPermissions`] ?? {}) as Record<string, unknown>;
  return {
    level,
    field(name) {
      const own = fields[`${camel(name)}Access`];
      return isAccessLevel(own) ? lowerOf(level, own) : level;
    },
  };
}
