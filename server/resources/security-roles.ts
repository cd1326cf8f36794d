import type { Kysely } from "kysely";
import { ROLE_NAME_MAX, securityRoles } from "../../app/common/resources/security-roles";
import { type Caller, requireAccess } from "../auth/caller";
import { grantsWithin, mayGrantRole } from "../auth/grants";
import { revokeAllSessions } from "../auth/tokens";
import { type RolePermissions, fieldAccess, isAdminRole, parsePermissions, permissionsOfMessage, resourceAccess, resourceTypes } from "../auth/permissions";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { type FieldErrors, HttpError, conflict, invalid, isUniqueViolation, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { auditChange } from "./audit";
import { serverResource } from "./registry";
import { checkUniques } from "./repository";
import { keepAnAdministrator } from "./user-guard";

// Creating, changing and deleting the firm's security roles (spec §5, §6). Nobody makes or
// changes a role holding more than they hold; the system-defined Administrator role keeps every
// right and its name; giving a role to users through the role is giving it to each of them, with
// the rules of the user page; every change writes its AUDIT entry in the same transaction.

/** A role as the UserSecurityRole message sends it. */
export interface RoleInput {
  name: string;
  userIds: string[];
  permissions: RolePermissions;
}

export function roleInputOf(decoded: Record<string, unknown>): RoleInput {
  const ids = Array.isArray(decoded.userIds) ? decoded.userIds.map(String) : [];
  return {
    name: String(decoded.name ?? "").trim(),
    userIds: [...new Set(ids.map((id) => id.trim()).filter(Boolean))],
    permissions: permissionsOfMessage(decoded),
  };
}

interface StoredRole {
  id: string;
  name: string;
  is_system_defined: number;
  permissions: string;
}

const refuse = (status: number, key: string, fieldErrors?: FieldErrors) => new HttpError(status, message(key), fieldErrors);

function checkShape(input: RoleInput): void {
  const errors: FieldErrors = {};
  if (!input.name) errors.name = [message("errors:required")];
  else if (input.name.length > ROLE_NAME_MAX) errors.name = [message("errors:fieldLength", { chars: ROLE_NAME_MAX })];
  if (!input.userIds.length) errors.userIds = [message("errors:roleAtLeastOneUser")];
  if (Object.keys(errors).length) throw invalid(errors);
}

async function storedRole(db: Kysely<DB>, firmId: number, id: string): Promise<StoredRole> {
  const role = await db
    .selectFrom("security_role")
    .select(["id", "name", "is_system_defined", "permissions"])
    .where("id", "=", id)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  if (!role) throw notFound();
  return role;
}

/** Changing or deleting a role: only an administrator touches the admin role, and nobody one above their own. */
function mayChange(caller: Caller, role: StoredRole): void {
  if (isAdminRole(role) && !caller.isAdmin) throw refuse(403, "errors:adminChangedByAdminOnly");
  if (!grantsWithin(caller.permissions, parsePermissions(role.permissions))) throw refuse(403, "errors:roleHoldsMoreThanYou");
}

interface Member {
  id: string;
  email: string;
  role_id: string;
  role_name: string;
  is_system_defined: number;
  permissions: string;
}

async function membersOf(db: Kysely<DB>, firmId: number, userIds: string[]): Promise<Member[]> {
  if (!userIds.length) return [];
  return db
    .selectFrom("app_user")
    .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
    .select([
      "app_user.id",
      "app_user.email",
      "security_role.id as role_id",
      "security_role.name as role_name",
      "security_role.is_system_defined",
      "security_role.permissions",
    ])
    .where("app_user.firm_id", "=", firmId)
    .where("app_user.id", "in", userIds)
    .execute();
}

/**
 * The users the role gains, checked as the user page checks a change of role: each must be of
 * the firm, may be changed by the caller, and the firm keeps an administrator. Users the role
 * already has must stay: a user leaves a role by being given another.
 */
async function usersJoining(
  db: Kysely<DB>,
  ctx: ServerContext,
  caller: Caller,
  role: { id: string; name: string; is_system_defined: number; permissions: string },
  userIds: string[],
) {
  const members = await membersOf(db, caller.firmId, userIds);
  if (members.length !== userIds.length) throw invalid({ userIds: [message("errors:unknownReference")] });
  const current = await db.selectFrom("app_user").select("id").where("firm_id", "=", caller.firmId).where("security_role_id", "=", role.id).execute();
  if (current.some((u) => !userIds.includes(u.id))) throw invalid({ userIds: [message("errors:roleUsersLeaveByMove")] });
  const joining = members.filter((m) => m.role_id !== role.id);
  if (!joining.length) return joining;
  if (!mayGrantRole(caller, role)) throw refuse(403, "errors:grantAboveOwn");
  for (const user of joining) {
    if (user.id === caller.userId) continue;
    if (isAdminRole({ name: user.role_name, is_system_defined: user.is_system_defined }) && !caller.isAdmin)
      throw refuse(403, "errors:adminChangedByAdminOnly");
    if (!grantsWithin(caller.permissions, parsePermissions(user.permissions))) throw refuse(403, "errors:userHoldsMoreThanYou");
  }
  await keepAnAdministrator(db, ctx, caller.firmId, { userIds: joining.map((u) => u.id), roleId: role.id }, "userIds");
  return joining;
}

/** The levels of a role as audit lines: each resource's level, and each field level below it. */
function auditRow(name: string, perms: RolePermissions, userEmails: string[]): Record<string, unknown> {
  const row: Record<string, unknown> = { name, users: userEmails.sort().join(", ") };
  for (const type of resourceTypes()) {
    const top = resourceAccess(perms, type.name);
    row[type.name] = top;
    for (const field of type.fields) {
      const level = fieldAccess(perms, type.name, field);
      if (level !== top) row[`${type.name}.${field}`] = level;
    }
  }
  return row;
}

const ROLE_ENTITY = () => message(`resources:${securityRoles.key}.singular`).toLowerCase();

async function emailsOf(db: Kysely<DB>, firmId: number, roleId: string): Promise<string[]> {
  const rows = await db.selectFrom("app_user").select("email").where("firm_id", "=", firmId).where("security_role_id", "=", roleId).execute();
  return rows.map((r) => r.email);
}

async function moveUsers(db: Kysely<DB>, ctx: ServerContext, caller: Caller, roleId: string, roleName: string, joining: Member[], now: number) {
  if (!joining.length) return;
  await db
    .updateTable("app_user")
    .set({ security_role_id: roleId, updated_at: now })
    .where("firm_id", "=", caller.firmId)
    .where(
      "id",
      "in",
      joining.map((u) => u.id),
    )
    .execute();
  for (const user of joining) {
    // As on the user page, a new role ends the user's sessions; the next sign-in carries it.
    await revokeAllSessions(ctx, user.id, db);
    const detail = message("audit:roleChanged", { actor: caller.email, user: user.email, from: user.role_name, to: roleName });
    await logEvent(db, { firmId: caller.firmId, level: "AUDIT", event: "user changed", detail, at: now });
  }
}

function checkWithinCaller(caller: Caller, input: RoleInput): void {
  if (!grantsWithin(caller.permissions, input.permissions)) throw refuse(403, "errors:roleAboveOwn");
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

/** A unique-name race lost to another writer is the same clash the check reports. */
async function clashAsConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

export async function createRole(ctx: ServerContext, caller: Caller, input: RoleInput): Promise<string> {
  requireAccess(caller, "firm", "write");
  checkShape(input);
  checkWithinCaller(caller, input);
  const id = newId();
  const now = ctx.clock.now();
  const row = {
    id,
    firm_id: caller.firmId,
    name: input.name,
    is_system_defined: 0,
    permissions: JSON.stringify(input.permissions),
    created_at: now,
    updated_at: now,
  };
  await clashAsConflict(() =>
    ctx.database.db.transaction().execute(async (trx) => {
      await checkUniques(trx, caller.firmId, serverResource("security-roles"), { name: input.name }, id);
      const joining = await usersJoining(trx, ctx, caller, row, input.userIds);
      await trx.insertInto("security_role").values(row).execute();
      await moveUsers(trx, ctx, caller, id, input.name, joining, now);
      const after = auditRow(input.name, input.permissions, await emailsOf(trx, caller.firmId, id));
      await auditChange(trx, caller, { def: securityRoles, entity: ROLE_ENTITY(), action: "created", id, before: null, after }, now);
    }),
  );
  return id;
}

export async function updateRole(ctx: ServerContext, caller: Caller, id: string, input: RoleInput): Promise<void> {
  requireAccess(caller, "firm", "write");
  checkShape(input);
  await clashAsConflict(() =>
    ctx.database.db.transaction().execute(async (trx) => {
      const stored = await storedRole(trx, caller.firmId, id);
      mayChange(caller, stored);
      const before = parsePermissions(stored.permissions);
      // The administrator keeps every right it has, and its name, whoever saves it.
      if (isAdminRole(stored) && (input.name !== stored.name || !grantsWithin(input.permissions, before))) throw refuse(400, "errors:adminRoleFixed");
      checkWithinCaller(caller, input);
      await checkUniques(trx, caller.firmId, serverResource("security-roles"), { name: input.name }, id);
      const now = ctx.clock.now();
      const next = { ...stored, name: input.name, permissions: JSON.stringify(input.permissions) };
      const joining = await usersJoining(trx, ctx, caller, next, input.userIds);
      const beforeRow = auditRow(stored.name, before, await emailsOf(trx, caller.firmId, id));
      await trx
        .updateTable("security_role")
        .set({ name: next.name, permissions: next.permissions, updated_at: now })
        .where("id", "=", id)
        .where("firm_id", "=", caller.firmId)
        .execute();
      await moveUsers(trx, ctx, caller, id, input.name, joining, now);
      const after = auditRow(input.name, input.permissions, await emailsOf(trx, caller.firmId, id));
      await auditChange(trx, caller, { def: securityRoles, entity: ROLE_ENTITY(), action: "updated", id, before: beforeRow, after }, now);
    }),
  );
}

export async function deleteRole(ctx: ServerContext, caller: Caller, id: string): Promise<void> {
  requireAccess(caller, "firm", "write");
  await ctx.database.db.transaction().execute(async (trx) => {
    const stored = await storedRole(trx, caller.firmId, id);
    mayChange(caller, stored);
    if (isAdminRole(stored)) throw refuse(400, "errors:adminRoleFixed");
    const users = await trx.selectFrom("app_user").select("id").where("security_role_id", "=", id).limit(1).execute();
    if (users.length) throw refuse(400, "errors:roleHasUsers");
    await trx
      .deleteFrom("security_role")
      .where("id", "=", id)
      .where("firm_id", "=", caller.firmId)
      .execute()
      .catch((error: unknown) => {
        // A user given the role meanwhile keeps it.
        if (isForeignKeyViolation(error)) throw refuse(400, "errors:roleHasUsers");
        throw error;
      });
    const before = { name: stored.name };
    await auditChange(trx, caller, { def: securityRoles, entity: ROLE_ENTITY(), action: "deleted", id, before, after: null }, ctx.clock.now());
  });
}
