import type { Kysely } from "kysely";
import type { Caller } from "../auth/caller";
import { HttpError } from "../lib/errors";
import { grantsWithin, mayGrantRole } from "../auth/grants";
import { isAdminRole, parsePermissions } from "../auth/permissions";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { message } from "../lib/messages";
import { logEvent } from "../jobs/event-log";
import type { RowWrite } from "./types";

// Who may change whom (security model, item "privilege"): nobody gives a role holding more than
// their own, only an administrator changes an administrator or gives the admin role, and another
// user's e-mail (the way into their account through a reset) changes only with FULL on users
// and at least the rights that user holds. Role and e-mail changes are audited as firm events.

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
