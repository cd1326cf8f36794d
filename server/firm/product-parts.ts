import type { ProductPart } from "../../app/common/entitled-features";
import type { ServerContext } from "../context";
import { demoResetAvailable } from "./demo-firm";
import { enabledFeatures } from "./entitled-features";
import { findFirm } from "./firm-repository";

/** The parts of the product a firm has on this installation (decision 048); null for no firm. */
export async function productPartsOf(ctx: ServerContext, firmId: number): Promise<ProductPart[] | null> {
  const firm = await findFirm(ctx.database, firmId);
  if (!firm) return null;
  const parts: ProductPart[] = enabledFeatures(firm, ctx.config.ECFX_CASE_RETRIEVE);
  if (await demoResetAvailable(ctx, firmId)) parts.push("DEMO_RESET");
  return parts;
}
