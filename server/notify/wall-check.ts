import type { ServerContext } from "../context";
import { type WallVerdict, wallsForCase } from "../walls/walls";

/** Whether a timekeeper is walled out of a case, reading each case's walls once. */
export function wallCheck(ctx: ServerContext, firmId: number): (caseId: string | null, timekeeperId: string | null) => Promise<boolean> {
  const verdicts = new Map<string, Promise<WallVerdict>>();
  return async (caseId, timekeeperId) => {
    if (!caseId || !timekeeperId) return false;
    let verdict = verdicts.get(caseId);
    if (!verdict) {
      verdict = wallsForCase(ctx.database.db, firmId, caseId);
      verdicts.set(caseId, verdict);
    }
    return (await verdict).isWalledOut(timekeeperId);
  };
}
