import type { Database } from "../db/database";
import { createFirm, createUser } from "../firm/create-firm";

export const DEMO_USERS = [
  { email: "admin@demo.ecfx.test", fullName: "Avery Admin", displayName: "Avery", role: "Administrator" },
  { email: "manager@demo.ecfx.test", fullName: "Morgan Manager", displayName: "Morgan", role: "Manager" },
  { email: "viewonly@demo.ecfx.test", fullName: "Vic Viewer", displayName: "Vic", role: "View Only" },
  { email: "docketing@demo.ecfx.test", fullName: "Dana Docketing", displayName: "Dana", role: "Docketing" },
] as const;

export const SECOND_FIRM_ADMIN = "admin@second.ecfx.test";
export const DEMO_INBOX = "notices@demo.ecfx.test";
export const SECOND_FIRM_INBOX = "notices@second.ecfx.test";

/** Demo data on first start: the demo firm with one user per default role, and a second firm. */
export async function seedDemo(database: Database, password: string, now: number): Promise<boolean> {
  const existing = await database.db.selectFrom("firm").select("id").limit(1).executeTakeFirst();
  if (existing) return false;
  const demo = await createFirm(database, { name: "Demo Law LLP", isDefault: true }, now);
  for (const u of DEMO_USERS) {
    await createUser(
      database,
      { firmId: demo.firmId, email: u.email, fullName: u.fullName, displayName: u.displayName, roleId: demo.roles[u.role], password },
      now,
    );
  }
  await database.db.insertInto("inbox_address").values({ address: DEMO_INBOX, firm_id: demo.firmId, created_at: now }).execute();
  const second = await createFirm(
    database,
    { name: "Second Chair & Co", hostNames: ["second.localhost"], primaryColor: "#5b2a86", secondaryColor: "#2a8656" },
    now,
  );
  await createUser(
    database,
    { firmId: second.firmId, email: SECOND_FIRM_ADMIN, fullName: "Sam Second", displayName: "Sam", roleId: second.roles.Administrator, password },
    now,
  );
  await database.db.insertInto("inbox_address").values({ address: SECOND_FIRM_INBOX, firm_id: second.firmId, created_at: now }).execute();
  return true;
}
