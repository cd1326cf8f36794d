import type { Kysely } from "kysely";
import type { Caller } from "../auth/caller";
import { HttpError } from "../lib/errors";
import { grantsWithin, mayGrantRole } from "../auth/grants";
import { isAdminRole, parsePermissions } from "../auth/permissions";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { holdFirm } from "../db/hold-firm";
import { message } from "../lib/messages";
import { logEvent } from "../queue/event-log";
import type { RowWrite } from "./types";

// Who may change whom (security model, item "privilege"): nobody gives a role holding more than
// their own, only an administrator changes an administrator or gives the admin role, and another
// user's e-mail (the way into their account through a reset) changes only with FULL on users
// and at least the rights that user holds. Role and e-mail changes are audited as firm events.
// The firm always keeps an administrator: every write that moves users to another role or deletes
// one (the user page, CSV import, the role editor) passes keepAnAdministrator in its transaction.

interface StoredUser {
  id: string;
  email: string;
  roleName: string;
  isAdmin: boolean;
  permissions: ReturnType<typeof parsePermissions>;
}

async function storedUser(db: Kysely<DB>, firmId: number, id: string): Promise<StoredUser | undefined> {
  const row = await db
    .selectFrom("app_user")
    .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
    .select(["app_user.id", "app_user.email", "security_role.name", "security_role.is_system_defined", "security_role.permissions"])
    .where("app_user.id", "=", id)
    .where("app_user.firm_id", "=", firmId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, email: row.email, roleName: row.name, isAdmin: isAdminRole(row), permissions: parsePermissions(row.permissions) };
}

const refuse = (key: string) => new HttpError(403, message(key));

function sameEmail(a: unknown, b: string): boolean {
  return (
    String(a ?? "")
      .trim()
      .toLowerCase() === b.trim().toLowerCase()
  );
}

export async function authorizeUserWrite(ctx: ServerContext, caller: Caller, write: RowWrite, db: Kysely<DB> = ctx.database.db) {
  const before = write.id ? await storedUser(db, caller.firmId, write.id) : undefined;
  if (before && before.id !== caller.userId) {
    if (before.isAdmin && !caller.isAdmin) throw refuse("errors:adminChangedByAdminOnly");
    if (!grantsWithin(caller.permissions, before.permissions)) throw refuse("errors:userHoldsMoreThanYou");
  }
  const roleId = write.values.security_role_id;
  let newRole: { name: string } | undefined;
  if (typeof roleId === "string" && roleId !== "") {
    const role = await db
      .selectFrom("security_role")
      .select(["id", "name", "is_system_defined", "permissions"])
      .where("id", "=", roleId)
      .where("firm_id", "=", caller.firmId)
      .executeTakeFirst();
    // An unknown role is the reference check's to refuse.
    if (role && !mayGrantRole(caller, role)) throw refuse("errors:grantAboveOwn");
    if (role && role.name !== before?.roleName) newRole = role;
  }
  const newEmail = before && write.values.email !== undefined && !sameEmail(write.values.email, before.email) ? String(write.values.email) : undefined;
  if (write.action === "delete" || (!newRole && !newEmail)) return;

  return async (id: string) => {
    const who = before?.email ?? String(write.values.email ?? id);
    const entries: string[] = [];
    if (newRole) entries.push(message("audit:roleChanged", { actor: caller.email, user: who, from: before?.roleName ?? "—", to: newRole.name }));
    if (newEmail) entries.push(message("audit:emailChanged", { actor: caller.email, from: who, to: newEmail }));
    for (const detail of entries) {
      await logEvent(ctx.database.db, { firmId: caller.firmId, level: "AUDIT", event: "user changed", detail, at: ctx.clock.now() });
    }
  };
}

/**
 * Refuses, with the firm's own message, a change that would leave the firm without an
 * administrator: `userIds` are given the role `roleId`, or deleted when it is null. Runs inside
 * the write's transaction before the write; once an administrator is among the users, it holds
 * the firm (hold-firm.ts) and counts again, so two administrators demoting each other at once
 * run one after the other and the second is refused. A field names where the refusal shows.
 */
export async function keepAnAdministrator(
  trx: Kysely<DB>,
  ctx: Pick<ServerContext, "database">,
  firmId: number,
  change: { userIds: string[]; roleId: string | null },
  field?: string,
): Promise<void> {
  const roles = await trx.selectFrom("security_role").select(["id", "name", "is_system_defined"]).where("firm_id", "=", firmId).execute();
  const adminRoles = roles.filter((role) => isAdminRole(role)).map((role) => role.id);
  if (!adminRoles.length || (change.roleId !== null && adminRoles.includes(change.roleId))) return;
  const admins = async () =>
    (
      await trx
        .selectFrom("app_user")
        .select("id")
        .where("firm_id", "=", firmId)
        .where("security_role_id", "in", adminRoles)
        // An administrator the identity provider deactivated (SCIM) cannot sign in: not one to keep.
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom("scim_user").select("user_id").whereRef("scim_user.user_id", "=", "app_user.id").where("scim_user.active", "=", 0))),
        )
        .execute()
    ).map((u) => u.id);
  if (!(await admins()).some((id) => change.userIds.includes(id))) return;
  await holdFirm(trx, ctx.database.dialect, firmId);
  if ((await admins()).every((id) => change.userIds.includes(id))) {
    const refusal = message("errors:lastAdministrator");
    throw new HttpError(400, refusal, field ? { [field]: [refusal] } : undefined);
  }
}

/** The user page's and CSV import's writes: a deleted user, or one given another role. */
export async function keepAdministratorOnWrite(trx: Kysely<DB>, ctx: ServerContext, caller: Caller, write: RowWrite): Promise<void> {
  if (!write.id) return;
  const roleId = write.values.security_role_id;
  if (write.action === "delete") await keepAnAdministrator(trx, ctx, caller.firmId, { userIds: [write.id], roleId: null });
  else if (typeof roleId === "string") await keepAnAdministrator(trx, ctx, caller.firmId, { userIds: [write.id], roleId }, "security_role_id");
}
