import type { Kysely } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { HttpError, isUniqueViolation } from "../lib/errors";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { logProvisioning } from "./actor";
import { filterOf, valueFilterOf } from "./filter";
import { applyGroupRoles, mappedRolesBefore } from "./group-roles";
import { patchOperations, textOf } from "./patch";
import { GROUP_SCHEMA, type Page, ScimError, listResponse } from "./protocol";

// SCIM Groups (RFC 7643 §4.2): the identity provider's groups of the firm's users. A group is a
// list of members until the firm maps it to a security role (group-roles.ts).

interface GroupRow {
  id: string;
  displayName: string;
  externalId: string | null;
  createdAt: number;
  updatedAt: number;
  members: { value: string; display: string }[];
}

async function groupRows(ctx: ServerContext, firmId: number, id?: string): Promise<GroupRow[]> {
  let groups = ctx.database.db.selectFrom("scim_group").selectAll().where("firm_id", "=", firmId);
  if (id !== undefined) groups = groups.where("id", "=", id);
  let members = ctx.database.db
    .selectFrom("scim_group_member")
    .innerJoin("app_user", "app_user.id", "scim_group_member.user_id")
    .select(["scim_group_member.group_id", "app_user.id", "app_user.email"])
    .where("scim_group_member.firm_id", "=", firmId);
  if (id !== undefined) members = members.where("scim_group_member.group_id", "=", id);
  const byGroup = new Map<string, { value: string; display: string }[]>();
  for (const member of await members.orderBy("app_user.email").execute()) {
    const list = byGroup.get(member.group_id) ?? [];
    list.push({ value: member.id, display: member.email });
    byGroup.set(member.group_id, list);
  }
  return (await groups.orderBy("created_at").orderBy("id").execute()).map((row) => ({
    id: row.id,
    displayName: row.display_name,
    externalId: row.external_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    members: byGroup.get(row.id) ?? [],
  }));
}

function representation(row: GroupRow, base: string): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    members: row.members.map((member) => ({ ...member, $ref: `${base}/Users/${member.value}` })),
    meta: {
      resourceType: "Group",
      created: new Date(row.createdAt).toISOString(),
      lastModified: new Date(row.updatedAt).toISOString(),
      location: `${base}/Groups/${row.id}`,
    },
  };
}

const notFound = (id: string) => new ScimError(404, `Group ${id.slice(0, 100)} not found.`);

export async function getGroup(ctx: ServerContext, firmId: number, id: string, base: string): Promise<Record<string, unknown>> {
  const [row] = await groupRows(ctx, firmId, id);
  if (!row) throw notFound(id);
  return representation(row, base);
}

export async function listGroups(ctx: ServerContext, firmId: number, filter: unknown, page: Page, base: string): Promise<Record<string, unknown>> {
  const test = filterOf(filter);
  return listResponse((await groupRows(ctx, firmId)).map((row) => representation(row, base)).filter(test), page);
}

interface GroupState {
  displayName: string;
  externalId: string | null;
  members: Set<string>;
}

const field = (resource: Record<string, unknown>, name: string) => Object.entries(resource).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

function memberIds(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = member && typeof member === "object" ? (member as Record<string, unknown>).value : undefined;
    if (typeof id !== "string" || id === "") throw new ScimError(400, "Each member names a user by its id in value.", "invalidValue");
    return id;
  });
}

function stateOf(body: unknown): GroupState {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "A Group is a JSON object.", "invalidSyntax");
  const resource = body as Record<string, unknown>;
  const displayName = textOf(field(resource, "displayName"), "displayName", false)!;
  if (displayName.length > 200) throw new ScimError(400, "displayName is longer than 200 characters.", "invalidValue");
  return { displayName, externalId: textOf(field(resource, "externalId") ?? null, "externalId"), members: new Set(memberIds(field(resource, "members"))) };
}

/** The state after a PATCH (RFC 7644 §3.5.2), in Entra ID's and Okta's ways of writing members. */
function patchedState(before: GroupState, body: unknown): GroupState {
  const state = { ...before, members: new Set(before.members) };
  for (const { op, path, value } of patchOperations(body)) {
    if (!path || path.extension) continue;
    if (path.attribute === "displayname") {
      if (op === "remove") throw new ScimError(400, "displayName cannot be removed.", "mutability");
      state.displayName = textOf(value, "displayName", false)!;
    } else if (path.attribute === "externalid") {
      state.externalId = op === "remove" ? null : textOf(value, "externalId");
    } else if (path.attribute === "members") {
      if (path.filter) {
        // members[value eq "…"]: the members the filter selects (Okta removes one this way).
        if (op !== "remove") throw new ScimError(400, "Only remove takes a filtered members path.", "invalidPath");
        const selects = valueFilterOf(path.filter);
        for (const id of [...state.members]) if (selects({ value: id })) state.members.delete(id);
      } else if (op === "add") {
        for (const id of memberIds(value)) state.members.add(id);
      } else if (op === "replace") {
        state.members = new Set(memberIds(value));
      } else if (value === undefined || value === null) {
        state.members.clear();
      } else {
        // Entra ID removes members by listing them in the value.
        for (const id of memberIds(value)) state.members.delete(id);
      }
    }
    // Other attributes have no place in a group here and are left alone.
  }
  return state;
}

async function checkMembers(db: Kysely<DB>, firmId: number, members: Set<string>): Promise<void> {
  if (members.size === 0) return;
  const ids = [...members];
  const found = new Set((await db.selectFrom("app_user").select("id").where("firm_id", "=", firmId).where("id", "in", ids).execute()).map((row) => row.id));
  const unknown = ids.find((id) => !found.has(id));
  // A user of another firm is as unknown as one that never was.
  if (unknown) throw new ScimError(400, `No user ${unknown.slice(0, 100)} in this firm.`, "invalidValue");
}

async function writeMembers(db: Kysely<DB>, firmId: number, groupId: string, members: Set<string>): Promise<void> {
  await db.deleteFrom("scim_group_member").where("group_id", "=", groupId).where("firm_id", "=", firmId).execute();
  if (members.size)
    await db
      .insertInto("scim_group_member")
      .values([...members].map((user_id) => ({ group_id: groupId, user_id, firm_id: firmId })))
      .execute();
}

/**
 * Writes a group's new state and gives its users the roles their groups now map to. A role
 * change the firm's rules refuse (its last administrator) undoes the membership change.
 */
async function writeGroup(ctx: ServerContext, firmId: number, id: string, before: GroupState | undefined, after: GroupState): Promise<void> {
  const db = ctx.database.db;
  await checkMembers(db, firmId, after.members);
  const touched = [...new Set([...(before?.members ?? []), ...after.members])];
  const rolesBefore = await mappedRolesBefore(db, firmId, touched);
  const now = ctx.clock.now();
  try {
    await db.transaction().execute(async (trx) => {
      if (before) {
        await trx
          .updateTable("scim_group")
          .set({ display_name: after.displayName, external_id: after.externalId, updated_at: now })
          .where("id", "=", id)
          .where("firm_id", "=", firmId)
          .execute();
      } else {
        await trx
          .insertInto("scim_group")
          .values({
            id,
            firm_id: firmId,
            display_name: after.displayName,
            external_id: after.externalId,
            security_role_id: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await writeMembers(trx as unknown as Kysely<DB>, firmId, id, after.members);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ScimError(409, message("errors:scimGroupNameTaken"), "uniqueness");
    throw error;
  }
  try {
    await applyGroupRoles(ctx, firmId, rolesBefore);
  } catch (error) {
    if (before) await writeMembers(db, firmId, id, before.members);
    else await db.deleteFrom("scim_group").where("id", "=", id).execute();
    if (error instanceof HttpError) throw new ScimError(error.status, error.message, error.status === 400 ? "mutability" : undefined);
    throw error;
  }
}

async function storedState(ctx: ServerContext, firmId: number, id: string): Promise<GroupState> {
  const [row] = await groupRows(ctx, firmId, id);
  if (!row) throw notFound(id);
  return { displayName: row.displayName, externalId: row.externalId, members: new Set(row.members.map((member) => member.value)) };
}

function describe(before: GroupState | undefined, after: GroupState): string {
  const added = [...after.members].filter((id) => !before?.members.has(id)).length;
  const removed = [...(before?.members ?? [])].filter((id) => !after.members.has(id)).length;
  return message(before ? "audit:scimGroupChanged" : "audit:scimGroupCreated", { group: after.displayName, added, removed });
}

export async function createGroup(ctx: ServerContext, firmId: number, body: unknown, base: string): Promise<Record<string, unknown>> {
  const state = stateOf(body);
  const taken = await ctx.database.db
    .selectFrom("scim_group")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("display_name", "=", state.displayName)
    .executeTakeFirst();
  if (taken) throw new ScimError(409, message("errors:scimGroupNameTaken"), "uniqueness");
  const id = newId();
  await writeGroup(ctx, firmId, id, undefined, state);
  await logProvisioning(ctx, firmId, describe(undefined, state));
  return getGroup(ctx, firmId, id, base);
}

export async function replaceGroup(ctx: ServerContext, firmId: number, id: string, body: unknown, base: string): Promise<Record<string, unknown>> {
  const before = await storedState(ctx, firmId, id);
  const after = stateOf(body);
  await writeGroup(ctx, firmId, id, before, after);
  await logProvisioning(ctx, firmId, describe(before, after));
  return getGroup(ctx, firmId, id, base);
}

export async function patchGroup(ctx: ServerContext, firmId: number, id: string, body: unknown): Promise<GroupState> {
  const before = await storedState(ctx, firmId, id);
  const after = patchedState(before, body);
  await writeGroup(ctx, firmId, id, before, after);
  await logProvisioning(ctx, firmId, describe(before, after));
  return after;
}

export async function deleteGroup(ctx: ServerContext, firmId: number, id: string): Promise<void> {
  const before = await storedState(ctx, firmId, id);
  // Emptied first, so its members' roles follow; then it goes.
  await writeGroup(ctx, firmId, id, before, { ...before, members: new Set() });
  await ctx.database.db.deleteFrom("scim_group").where("id", "=", id).where("firm_id", "=", firmId).execute();
  await logProvisioning(ctx, firmId, message("audit:scimGroupDeleted", { group: before.displayName }));
}
