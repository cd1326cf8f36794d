import { type AccessLevel, isAccessLevel, lowerOf } from "../../common/access";
import { type ApiClient, type Me, ownRoleCache } from "../../utils/auth.server";
import { decodeMessage } from "../../../proto/codec.server";

/** A role's level on one resource type and on each of its fields, as the API enforces them. */
export interface ResourceAccess {
  level: AccessLevel;
  field(name: string): AccessLevel;
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The user's own role as the binary UserSecurityRole message decodes it; null when it cannot be read. */
function readOwnRole(api: ApiClient, me: Me): Promise<Record<string, unknown> | null> {
  return ownRoleCache.keep(`${api.sessionKey} ${me.securityRoleId}`, () => fetchOwnRole(api, me));
}

async function fetchOwnRole(api: ApiClient, me: Me): Promise<Record<string, unknown> | null> {
  const response = await api.raw(`/api/v1/user-security-role/${encodeURIComponent(me.securityRoleId)}`, { accept: "application/x-protobuf" });
  if (!response.ok) return null;
  return decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer())) as Record<string, unknown>;
}

/** A field the message does not name takes the resource's level, as on the server; a field never exceeds its resource. */
function accessIn(role: Record<string, unknown> | null, resource: string, fallback: AccessLevel): ResourceAccess {
  if (!role) return { level: fallback, field: () => fallback };
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

/** The user's role, read once, as levels on any resource type. */
export async function roleAccess(api: ApiClient, me: Me): Promise<(resource: string, fallback: AccessLevel) => ResourceAccess> {
  const role = await readOwnRole(api, me);
  return (resource, fallback) => accessIn(role, resource, fallback);
}
