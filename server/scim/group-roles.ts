import type { Kysely } from "kysely";
import { grantsWithin } from "../auth/grants";
import { isAdminRole, parsePermissions } from "../auth/permissions";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { serverResource } from "../resources/registry";
import { update } from "../resources/repository";
import { logProvisioning, provisioningCaller } from "./actor";
import { message } from "../lib/messages";

// A group gives a security role only where the firm mapped it to one on the console; no group
// maps to any role until then, the Administrator role included. A user in several mapped groups
// holds the role that grants the most among them; a user who leaves the last mapped group goes
// back to the role provisioned users start with. Role changes go through the user entity's own
// update: the last administrator is kept, and the user's sessions end at once.

/** The role a provisioned user starts with: the firm's View Only role, else its least-granting one. */
export async function defaultProvisionedRole(db: Kysely<DB>, firmId: number): Promise<string> {
  const roles = await db.selectFrom("security_role").select(["id", "name", "is_system_defined", "permissions"]).where("firm_id", "=", firmId).execute();
  const viewOnly = roles.find((role) => role.is_system_defined && role.name === "View Only");
  if (viewOnly) return viewOnly.id;
  const candidates = roles.filter((role) => !isAdminRole(role)).sort((a, b) => a.name.localeCompare(b.name));
  const least = candidates.find((role) => candidates.every((other) => grantsWithin(parsePermissions(other.permissions), parsePermissions(role.permissions))));
  const chosen = least ?? candidates[0];
  if (!chosen) throw new Error(`Firm ${firmId} has no role but the Administrator role`);
  return chosen.id;
}

type Role = { id: string; name: string; is_system_defined: number | boolean; permissions: string };

/** Among several mapped roles, the one that grants the most (the admin role first), else by name. */
function strongest(roles: Role[]): Role | undefined {
  const sorted = [...roles].sort((a, b) => a.name.localeCompare(b.name));
  return (
    sorted.find((role) => isAdminRole(role)) ??
    sorted.find((role) => sorted.every((other) => grantsWithin(parsePermissions(role.permissions), parsePermissions(other.permissions)))) ??
    sorted[0]
  );
}

/** The mapped roles each of these users' groups give them. */
async function mappedRoles(db: Kysely<DB>, firmId: number, userIds: string[]): Promise<Map<string, Role[]>> {
  const byUser = new Map<string, Role[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom("scim_group_member")
    .innerJoin("scim_group", "scim_group.id", "scim_group_member.group_id")
    .innerJoin("security_role", (join) =>
      join.onRef("security_role.id", "=", "scim_group.security_role_id").onRef("security_role.firm_id", "=", "scim_group.firm_id"),
    )
    .select(["scim_group_member.user_id", "security_role.id", "security_role.name", "security_role.is_system_defined", "security_role.permissions"])
    .where("scim_group_member.firm_id", "=", firmId)
    .where("scim_group_member.user_id", "in", userIds)
    .execute();
  for (const row of rows) byUser.get(row.user_id)?.push(row);
  return byUser;
}

/** What each user's mapped roles are now, to compare with after a change (applyGroupRoles). */
export async function mappedRolesBefore(db: Kysely<DB>, firmId: number, userIds: string[]): Promise<Map<string, Role[]>> {
  return mappedRoles(db, firmId, userIds);
}

/**
 * Gives each user the role their mapped groups now call for. `before`: their mapped roles before
 * the change; a user who had some and has none now returns to the starting role. Users whose
 * groups never mapped to a role keep the role they have.
 */
export async function applyGroupRoles(ctx: ServerContext, firmId: number, before: Map<string, Role[]>): Promise<void> {
  const userIds = [...before.keys()];
  const after = await mappedRoles(ctx.database.db, firmId, userIds);
  const users = await ctx.database.db
    .selectFrom("app_user")
    .select(["id", "email", "security_role_id"])
    .where("firm_id", "=", firmId)
    .where("id", "in", userIds.length ? userIds : [""])
    .execute();
  for (const user of users) {
    const roles = after.get(user.id) ?? [];
    const target = roles.length ? strongest(roles)?.id : (before.get(user.id) ?? []).length ? await defaultProvisionedRole(ctx.database.db, firmId) : undefined;
    if (!target || target === user.security_role_id) continue;
    await update(ctx, provisioningCaller(firmId), serverResource("users"), user.id, { security_role_id: target });
    const role = (await ctx.database.db.selectFrom("security_role").select("name").where("id", "=", target).executeTakeFirst())?.name ?? target;
    await logProvisioning(ctx, firmId, message("audit:scimRoleFromGroups", { user: user.email, role }));
  }
}
