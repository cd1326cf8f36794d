import type { ServerContext } from "../context";

/** The demo reset exists on a demo installation, and there for the demo firm (the default one) only. */
export async function demoResetAvailable(ctx: ServerContext, firmId: number): Promise<boolean> {
  if (!ctx.resetDemoFirm) return false;
  const firm = await ctx.database.db.selectFrom("firm").select("is_default").where("id", "=", firmId).executeTakeFirst();
  return Boolean(firm?.is_default);
}
