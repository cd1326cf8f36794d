import { type AccessLevel, isAccessLevel } from "../common/access";

/** A decoded UserSecurityRole as rows of (resource type, access level), in message order. */
export function roleRows(role: Record<string, unknown>): { resource: string; access: AccessLevel }[] {
  return Object.entries(role)
    .filter(([key, value]) => key.endsWith("Access") && isAccessLevel(value))
    .map(([key, value]) => ({
      resource: key.replace(/Access$/, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      access: value as AccessLevel,
    }));
}
