import { type DefaultRoleName, defaultRolePermissions } from "../auth/permissions";
import { hashPassword } from "../auth/password";
import type { Database } from "../db/database";
import { newId } from "../lib/ids";
import { ensureDefaultTemplate } from "../mail/notice-template";

export const DEFAULT_ROLES: DefaultRoleName[] = ["Administrator", "Manager", "Docketing", "View Only"];

/** A new firm with its four default roles and its notice template; returns the firm id and the role ids by name. */
export async function createFirm(
  database: Database,
  input: { name: string; hostNames?: string[]; isDefault?: boolean; primaryColor?: string; secondaryColor?: string },
  now: number,
): Promise<{ firmId: number; roles: Record<DefaultRoleName, string> }> {
  const created = await database.db.transaction().execute(async (trx) => {
    const firm = await trx
      .insertInto("firm")
      .values({
        name: input.name,
        host_names: JSON.stringify(input.hostNames ?? []),
        is_default: input.isDefault ? 1 : 0,
        created_at: now,
        updated_at: now,
        ...(input.primaryColor ? { primary_color: input.primaryColor } : {}),
        ...(input.secondaryColor ? { secondary_color: input.secondaryColor } : {}),
      } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    const roles = {} as Record<DefaultRoleName, string>;
    for (const name of DEFAULT_ROLES) {
      const id = newId();
      roles[name] = id;
      await trx
        .insertInto("security_role")
        .values({
          id,
          firm_id: firm.id,
          name,
          is_system_defined: name === "Administrator" ? 1 : 0,
          permissions: JSON.stringify(defaultRolePermissions(name)),
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    return { firmId: firm.id, roles };
  });
  // Every firm starts with a notice template, so notification mail has one from the first notice.
  await ensureDefaultTemplate({ database, clock: { now: () => now } }, created.firmId);
  return created;
}

export async function createUser(
  database: Database,
  input: { firmId: number; email: string; fullName: string; displayName: string; roleId: string; password: string },
  now: number,
): Promise<string> {
  const id = newId();
  await database.db
    .insertInto("app_user")
    .values({
      id,
      firm_id: input.firmId,
      email: input.email.toLowerCase(),
      full_name: input.fullName,
      display_name: input.displayName,
      timekeeper_id: null,
      security_role_id: input.roleId,
      password_hash: await hashPassword(input.password),
      token_version: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
