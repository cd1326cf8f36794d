import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { firmSetting } from "../firm/firm-repository";

// Ethical walls decide, per matter, which timekeepers may hear of it. A wall on a client covers
// every matter of that client, including matters created after the wall.

export interface WallVerdict {
  /** Whether this timekeeper is kept out of the matter. */
  isWalledOut(timekeeperId: string): boolean;
  /** Whether any wall applies at all (no wall: nobody is kept out). */
  readonly walled: boolean;
}

const OPEN: WallVerdict = { isWalledOut: () => false, walled: false };

/**
 * The walls over one matter. Exclusionary walls keep their timekeepers out; inclusionary walls
 * keep out everyone they do not list. Several walls all apply. Walls only hold while the firm
 * has them enabled.
 */
export async function wallsForMatter(db: Kysely<DB>, firmId: number, matterId: string | null | undefined): Promise<WallVerdict> {
  if (!matterId) return OPEN;
  if (!(await firmSetting(db, firmId, "internal_walls_enabled"))) return OPEN;
  return wallsOverMatter(db, firmId, matterId);
}

/** wallsForMatter once the firm is known to have walls enabled. */
async function wallsOverMatter(db: Kysely<DB>, firmId: number, matterId: string): Promise<WallVerdict> {
  const matter = await db.selectFrom("matter").select(["id", "client_id"]).where("id", "=", matterId).where("firm_id", "=", firmId).executeTakeFirst();
  if (!matter) return OPEN;
  const walls = await db
    .selectFrom("ethical_wall")
    .select(["id", "type"])
    .where("firm_id", "=", firmId)
    .where((eb) => eb.or([eb("matter_id", "=", matter.id), eb("client_id", "=", matter.client_id)]))
    .execute();
  if (walls.length === 0) return OPEN;
  const members = await db
    .selectFrom("ethical_wall_timekeeper")
    .select(["wall_id", "timekeeper_id"])
    .where(
      "wall_id",
      "in",
      walls.map((w) => w.id),
    )
    .execute();
  const listed = (wallId: string) => new Set(members.filter((m) => m.wall_id === wallId).map((m) => m.timekeeper_id));
  const rules = walls.map((w) => ({ type: w.type, listed: listed(w.id) }));
  return {
    walled: true,
    isWalledOut: (timekeeperId) => rules.some((r) => (r.type === "exclusionary" ? r.listed.has(timekeeperId) : !r.listed.has(timekeeperId))),
  };
}

/** The walls over the case's matter. */
export async function wallsForCase(db: Kysely<DB>, firmId: number, caseId: string | null | undefined): Promise<WallVerdict> {
  if (!caseId) return OPEN;
  // The setting first: a firm without walls (most) needs no read of the case.
  if (!(await firmSetting(db, firmId, "internal_walls_enabled"))) return OPEN;
  const found = await db.selectFrom("court_case").select("matter_id").where("id", "=", caseId).where("firm_id", "=", firmId).executeTakeFirst();
  return found?.matter_id ? wallsOverMatter(db, firmId, found.matter_id) : OPEN;
}

/** Whether a console user (through their timekeeper) is kept out of a case. */
export async function userWalledOutOfCase(db: Kysely<DB>, firmId: number, userId: string, caseId: string | null | undefined): Promise<boolean> {
  if (!caseId) return false;
  const user = await db.selectFrom("app_user").select("timekeeper_id").where("id", "=", userId).executeTakeFirst();
  if (!user?.timekeeper_id) return false;
  const verdict = await wallsForCase(db, firmId, caseId);
  return verdict.isWalledOut(user.timekeeper_id);
}

/** Whether a timekeeper is walled out of a case, reading each case's walls once (for many rows). */
export function wallCheck(db: Kysely<DB>, firmId: number): (caseId: string | null, timekeeperId: string | null) => Promise<boolean> {
  const verdicts = new Map<string, Promise<WallVerdict>>();
  return async (caseId, timekeeperId) => {
    if (!caseId || !timekeeperId) return false;
    let verdict = verdicts.get(caseId);
    if (!verdict) {
      verdict = wallsForCase(db, firmId, caseId);
      verdicts.set(caseId, verdict);
    }
    return (await verdict).isWalledOut(timekeeperId);
  };
}
