import type { Kysely } from "kysely";
import { emailField } from "../../app/common/validation";
import { revokeAllSessions } from "../auth/tokens";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { HttpError, isUniqueViolation } from "../lib/errors";
import { message } from "../lib/messages";
import { serverResource } from "../resources/registry";
import { create, remove, update } from "../resources/repository";
import { keepAnAdministrator } from "../resources/user-guard";
import { logProvisioning, provisioningCaller } from "./actor";
import { filterOf } from "./filter";
import { defaultProvisionedRole } from "./group-roles";
import { type PatchOperation, booleanOf, patchOperations, textOf } from "./patch";
import { type Page, ScimError, USER_SCHEMA, listResponse } from "./protocol";

// SCIM Users (RFC 7643 §4.1) are the firm's users: userName and the one e-mail are the user's
// e-mail (their sign-in), name.formatted its full name, displayName its display name. What the
// user record has no place for (externalId, the name's parts, active) is kept beside it in
// scim_user. Every write goes through the user entity's own create, update and delete.

const users = () => serverResource("users");

/** What a SCIM User says, as this service keeps it. */
export interface UserState {
  email: string;
  givenName: string;
  familyName: string;
  formatted: string;
  displayName: string;
  externalId: string | null;
  active: boolean;
}

interface UserRow extends UserState {
  id: string;
  createdAt: number;
  updatedAt: number;
}

async function userRows(ctx: ServerContext, firmId: number, id?: string): Promise<UserRow[]> {
  let query = ctx.database.db
    .selectFrom("app_user")
    .leftJoin("scim_user", "scim_user.user_id", "app_user.id")
    .select([
      "app_user.id",
      "app_user.email",
      "app_user.full_name",
      "app_user.display_name",
      "app_user.created_at",
      "app_user.updated_at",
      "scim_user.external_id",
      "scim_user.given_name",
      "scim_user.family_name",
      "scim_user.active",
    ])
    .where("app_user.firm_id", "=", firmId);
  if (id !== undefined) query = query.where("app_user.id", "=", id);
  const rows = await query.orderBy("app_user.created_at").orderBy("app_user.id").execute();
  return rows.map((row) => {
    // A user made on the console has no name parts yet: the full name's first word and the rest.
    const [first = "", ...rest] = row.full_name.split(/\s+/);
    const named = row.given_name || row.family_name;
    return {
      id: row.id,
      email: row.email,
      formatted: row.full_name,
      givenName: named ? (row.given_name ?? "") : first,
      familyName: named ? (row.family_name ?? "") : rest.join(" "),
      displayName: row.display_name,
      externalId: row.external_id ?? null,
      active: row.active !== 0,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  });
}

async function groupsOf(ctx: ServerContext, firmId: number, userId?: string): Promise<Map<string, { value: string; display: string }[]>> {
  let query = ctx.database.db
    .selectFrom("scim_group_member")
    .innerJoin("scim_group", "scim_group.id", "scim_group_member.group_id")
    .select(["scim_group_member.user_id", "scim_group.id", "scim_group.display_name"])
    .where("scim_group_member.firm_id", "=", firmId);
  if (userId !== undefined) query = query.where("scim_group_member.user_id", "=", userId);
  const byUser = new Map<string, { value: string; display: string }[]>();
  for (const row of await query.orderBy("scim_group.display_name").execute()) {
    const list = byUser.get(row.user_id) ?? [];
    list.push({ value: row.id, display: row.display_name });
    byUser.set(row.user_id, list);
  }
  return byUser;
}

function representation(row: UserRow, groups: { value: string; display: string }[], base: string): Record<string, unknown> {
  const location = `${base}/Users/${row.id}`;
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.email,
    name: { formatted: row.formatted, givenName: row.givenName, familyName: row.familyName },
    displayName: row.displayName,
    emails: [{ value: row.email, type: "work", primary: true }],
    active: row.active,
    groups: groups.map((group) => ({ ...group, $ref: `${base}/Groups/${group.value}` })),
    meta: { resourceType: "User", created: new Date(row.createdAt).toISOString(), lastModified: new Date(row.updatedAt).toISOString(), location },
  };
}

const notFound = (id: string) => new ScimError(404, `User ${id.slice(0, 100)} not found.`);

export async function getUser(ctx: ServerContext, firmId: number, id: string, base: string): Promise<Record<string, unknown>> {
  const [row] = await userRows(ctx, firmId, id);
  if (!row) throw notFound(id);
  return representation(row, (await groupsOf(ctx, firmId, id)).get(id) ?? [], base);
}

export async function listUsers(ctx: ServerContext, firmId: number, filter: unknown, page: Page, base: string): Promise<Record<string, unknown>> {
  const test = filterOf(filter);
  const groups = await groupsOf(ctx, firmId);
  const all = (await userRows(ctx, firmId)).map((row) => representation(row, groups.get(row.id) ?? [], base)).filter(test);
  return listResponse(all, page);
}

const email = emailField();

function emailOf(value: unknown): string {
  const parsed = email.safeParse(value);
  if (!parsed.success) throw new ScimError(400, "userName must be an e-mail address.", "invalidValue");
  return parsed.data;
}

/** The state a full User resource (POST, PUT) describes; `before` fills in what it leaves out. */
function stateOf(body: unknown, before?: UserState): UserState {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "A User is a JSON object.", "invalidSyntax");
  const resource = body as Record<string, unknown>;
  const field = (name: string) => Object.entries(resource).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const name = (field("name") ?? {}) as Record<string, unknown>;
  const nameField = (sub: string) => (typeof name === "object" && name ? Object.entries(name).find(([key]) => key.toLowerCase() === sub)?.[1] : undefined);
  const givenName = textOf(nameField("givenname") ?? null, "name.givenName") ?? "";
  const familyName = textOf(nameField("familyname") ?? null, "name.familyName") ?? "";
  const userName = emailOf(field("userName"));
  const formatted =
    textOf(nameField("formatted") ?? null, "name.formatted") ?? ([givenName, familyName].filter(Boolean).join(" ") || before?.formatted || userName);
  const active = field("active");
  return {
    email: userName,
    givenName,
    familyName,
    formatted,
    displayName: textOf(field("displayName") ?? null, "displayName") ?? formatted,
    externalId: textOf(field("externalId") ?? null, "externalId"),
    active: active === undefined ? (before?.active ?? true) : booleanOf(active, "active"),
  };
}

function setName(state: UserState, sub: string | undefined, value: unknown, op: PatchOperation["op"]): void {
  const text = (v: unknown, attribute: string) => (op === "remove" ? null : textOf(v, attribute));
  if (sub === undefined) {
    if (op === "remove") {
      state.givenName = "";
      state.familyName = "";
      return;
    }
    if (!value || typeof value !== "object") throw new ScimError(400, "name must be an object.", "invalidValue");
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) setName(state, key.toLowerCase(), inner, op);
    return;
  }
  if (sub === "givenname") state.givenName = text(value, "name.givenName") ?? "";
  else if (sub === "familyname") state.familyName = text(value, "name.familyName") ?? "";
  else if (sub === "formatted") state.formatted = text(value, "name.formatted") ?? [state.givenName, state.familyName].filter(Boolean).join(" ");
  // Other name parts (middleName, honorificPrefix…) have no place in the user record.
}

/** The state after a PATCH's operations, applied in order (RFC 7644 §3.5.2). */
export function patchedState(before: UserState, body: unknown): UserState {
  const state = { ...before };
  let formattedSent = false;
  for (const { op, path, value } of patchOperations(body)) {
    if (!path || path.extension) continue;
    switch (path.attribute) {
      case "username":
        if (op === "remove") throw new ScimError(400, "userName cannot be removed.", "mutability");
        state.email = emailOf(value);
        break;
      case "active":
        if (op === "remove") throw new ScimError(400, "active cannot be removed.", "mutability");
        state.active = booleanOf(value, "active");
        break;
      case "displayname":
        state.displayName = (op === "remove" ? null : textOf(value, "displayName")) ?? state.formatted;
        break;
      case "externalid":
        state.externalId = op === "remove" ? null : textOf(value, "externalId");
        break;
      case "name":
        if (path.sub === "formatted" || (path.sub === undefined && value && typeof value === "object" && "formatted" in value)) formattedSent = true;
        setName(state, path.sub, value, op);
        break;
      // The e-mail is the userName; other attributes (title, phone numbers, addresses) have no
      // place in the user record and are left alone, as RFC 7644 §3.3 lets a service do.
      default:
        break;
    }
  }
  // A new given or family name renames the user unless the full name came with it.
  if (!formattedSent && (state.givenName !== before.givenName || state.familyName !== before.familyName)) {
    state.formatted = [state.givenName, state.familyName].filter(Boolean).join(" ") || state.formatted;
  }
  return state;
}

/** The user entity's own write, its refusals spoken as SCIM errors. */
async function asScim<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ScimError) throw error;
    if (isUniqueViolation(error)) throw new ScimError(409, message("errors:scimUserNameTaken"), "uniqueness");
    if (error instanceof HttpError) {
      if (error.status === 409) throw new ScimError(409, error.message, "uniqueness");
      const fields = error.fieldErrors ? Object.values(error.fieldErrors).flat().join(" ") : "";
      throw new ScimError(error.status, [error.message, fields].filter(Boolean).join(" "), error.status === 400 ? "invalidValue" : undefined);
    }
    throw error;
  }
}

async function emailTaken(ctx: ServerContext, emailAddress: string, exceptId?: string): Promise<boolean> {
  let query = ctx.database.db.selectFrom("app_user").select("id").where("email", "=", emailAddress);
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export async function createUser(ctx: ServerContext, firmId: number, body: unknown, base: string): Promise<Record<string, unknown>> {
  const state = stateOf(body);
  // userName is unique across the installation: it is how a user signs in.
  if (await emailTaken(ctx, state.email)) throw new ScimError(409, message("errors:scimUserNameTaken"), "uniqueness");
  const caller = provisioningCaller(firmId);
  const role = await defaultProvisionedRole(ctx.database.db, firmId);
  const created = await asScim(() =>
    create(ctx, caller, users(), {
      email: state.email,
      full_name: clip(state.formatted, 200),
      display_name: clip(state.displayName, 100),
      security_role_id: role,
    }),
  );
  const id = String(created.id);
  await ctx.database.db
    .insertInto("scim_user")
    .values({
      user_id: id,
      firm_id: firmId,
      external_id: state.externalId,
      given_name: state.givenName,
      family_name: state.familyName,
      active: state.active ? 1 : 0,
    })
    .execute();
  await logProvisioning(ctx, firmId, message("audit:scimUserCreated", { user: state.email }));
  return getUser(ctx, firmId, id, base);
}

async function storedState(ctx: ServerContext, firmId: number, id: string): Promise<UserState> {
  const [row] = await userRows(ctx, firmId, id);
  if (!row) throw notFound(id);
  return row;
}

/** Writes the difference between two states: the user record, what is kept beside it, and active. */
async function writeState(ctx: ServerContext, firmId: number, id: string, before: UserState, after: UserState): Promise<void> {
  const caller = provisioningCaller(firmId);
  const record: Record<string, string> = {};
  if (after.email !== before.email) {
    if (await emailTaken(ctx, after.email, id)) throw new ScimError(409, message("errors:scimUserNameTaken"), "uniqueness");
    record.email = after.email;
  }
  if (after.formatted !== before.formatted) record.full_name = clip(after.formatted, 200);
  if (after.displayName !== before.displayName) record.display_name = clip(after.displayName, 100);
  if (Object.keys(record).length > 0) await asScim(() => update(ctx, caller, users(), id, record));

  const kept = { external_id: after.externalId, given_name: after.givenName, family_name: after.familyName, active: after.active ? 1 : 0 };
  await asScim(() =>
    ctx.database.db.transaction().execute(async (trx) => {
      const db = trx as unknown as Kysely<DB>;
      // A deactivated user counts as no administrator: the firm keeps an active one.
      if (before.active && !after.active) await keepAnAdministrator(db, ctx, firmId, { userIds: [id], roleId: null });
      await db
        .insertInto("scim_user")
        .values({ user_id: id, firm_id: firmId, ...kept })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(kept))
        .execute();
      // Deactivation ends every session at once, in the same transaction.
      if (before.active && !after.active) await revokeAllSessions(ctx, id, db);
    }),
  );
  const changed = [
    record.email && "userName",
    record.full_name && "name",
    record.display_name && "displayName",
    after.externalId !== before.externalId && "externalId",
    (after.givenName !== before.givenName || after.familyName !== before.familyName) && !record.full_name && "name",
  ].filter((part): part is string => Boolean(part));
  const user = after.email;
  if (changed.length) await logProvisioning(ctx, firmId, message("audit:scimUserUpdated", { user, fields: [...new Set(changed)].join(", ") }));
  if (before.active && !after.active) await logProvisioning(ctx, firmId, message("audit:scimUserDeactivated", { user }));
  if (!before.active && after.active) await logProvisioning(ctx, firmId, message("audit:scimUserReactivated", { user }));
}

export async function replaceUser(ctx: ServerContext, firmId: number, id: string, body: unknown, base: string): Promise<Record<string, unknown>> {
  const before = await storedState(ctx, firmId, id);
  await writeState(ctx, firmId, id, before, stateOf(body, before));
  return getUser(ctx, firmId, id, base);
}

export async function patchUser(ctx: ServerContext, firmId: number, id: string, body: unknown, base: string): Promise<Record<string, unknown>> {
  const before = await storedState(ctx, firmId, id);
  await writeState(ctx, firmId, id, before, patchedState(before, body));
  return getUser(ctx, firmId, id, base);
}

export async function deleteUser(ctx: ServerContext, firmId: number, id: string): Promise<void> {
  const before = await storedState(ctx, firmId, id);
  // The user entity's delete keeps the firm's last administrator and ends the user's sessions
  // with the user record (a token of a user that is gone opens nothing).
  await asScim(() => remove(ctx, provisioningCaller(firmId), users(), id));
  await ctx.database.db.deleteFrom("scim_group_member").where("user_id", "=", id).where("firm_id", "=", firmId).execute();
  await ctx.database.db.deleteFrom("scim_user").where("user_id", "=", id).where("firm_id", "=", firmId).execute();
  await ctx.database.db.updateTable("refresh_token").set({ revoked_at: ctx.clock.now() }).where("user_id", "=", id).where("revoked_at", "is", null).execute();
  await logProvisioning(ctx, firmId, message("audit:scimUserDeleted", { user: before.email }));
}
