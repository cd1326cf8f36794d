import type { Caller } from "../auth/caller";
import { mayGrantRole } from "../auth/grants";
import type { ServerContext } from "../context";
import { HttpError, invalid, notFound } from "../lib/errors";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";
import { applyGroupRoles, mappedRolesBefore } from "./group-roles";
import { type ScimTokenListing, listScimTokens } from "./tokens";

// What the console's provisioning page shows and changes besides tokens: the identity provider's
// groups and the security role the firm maps each to.

export interface ProvisioningSettings {
  tokens: ScimTokenListing[];
  groups: { id: string; displayName: string; members: number; securityRoleId: string | null }[];
  roles: { id: string; name: string }[];
}

export async function provisioningSettings(ctx: ServerContext, firmId: number): Promise<ProvisioningSettings> {
  const db = ctx.database.db;
  const [tokens, groups, members, roles] = await Promise.all([
    listScimTokens(ctx, firmId),
    db.selectFrom("scim_group").select(["id", "display_name", "security_role_id"]).where("firm_id", "=", firmId).orderBy("display_name").execute(),
    db
      .selectFrom("scim_group_member")
      .select(["group_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("firm_id", "=", firmId)
      .groupBy("group_id")
      .execute(),
    db.selectFrom("security_role").select(["id", "name"]).where("firm_id", "=", firmId).orderBy("name").execute(),
  ]);
  const count = new Map(members.map((row) => [row.group_id, Number(row.n)]));
  return {
    tokens,
    groups: groups.map((group) => ({
      id: group.id,
      displayName: group.display_name,
      members: count.get(group.id) ?? 0,
      securityRoleId: group.security_role_id,
    })),
    roles,
  };
}

/**
 * Maps a group to a role (or to none) and gives its members the roles their groups now call for.
 * Nobody maps a group to a role above their own; a change that would leave the firm without an
 * administrator is refused and undone.
 */
export async function mapGroupToRole(ctx: ServerContext, caller: Caller, groupId: string, roleId: string | null): Promise<void> {
  const db = ctx.database.db;
  const group = await db
    .selectFrom("scim_group")
    .select(["id", "display_name", "security_role_id"])
    .where("id", "=", groupId)
    .where("firm_id", "=", caller.firmId)
    .executeTakeFirst();
  if (!group) throw notFound();
  let roleName = message("audit:scimNoRole");
  if (roleId !== null) {
    const role = await db
      .selectFrom("security_role")
      .select(["id", "name", "is_system_defined", "permissions"])
      .where("id", "=", roleId)
      .where("firm_id", "=", caller.firmId)
      .executeTakeFirst();
    if (!role) throw invalid({ security_role_id: ["errors:notFound"] });
    if (!mayGrantRole(caller, role)) throw new HttpError(403, message("errors:grantAboveOwn"));
    roleName = role.name;
  }
  if (roleId === group.security_role_id) return;
  const members = (
    await db.selectFrom("scim_group_member").select("user_id").where("group_id", "=", groupId).where("firm_id", "=", caller.firmId).execute()
  ).map((m) => m.user_id);
  const before = await mappedRolesBefore(db, caller.firmId, members);
  const setRole = (id: string | null) =>
    db
      .updateTable("scim_group")
      .set({ security_role_id: id, updated_at: ctx.clock.now() })
      .where("id", "=", groupId)
      .where("firm_id", "=", caller.firmId)
      .execute();
  await setRole(roleId);
  try {
    await applyGroupRoles(ctx, caller.firmId, before);
  } catch (error) {
    await setRole(group.security_role_id);
    throw error;
  }
  await logEvent(db, {
    firmId: caller.firmId,
    level: "AUDIT",
    event: "configuration changed",
    detail: message("audit:scimGroupMapped", { actor: caller.email, group: group.display_name, role: roleName }),
    at: ctx.clock.now(),
  });
}
