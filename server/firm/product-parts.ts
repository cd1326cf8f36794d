import type { ProductPart } from "../../app/common/entitled-features";
import type { ServerContext } from "../context";
import { demoResetAvailable } from "./demo-firm";
import { enabledFeatures } from "./entitled-features";
import { findFirm } from "./firm-repository";

/** The parts of the product a firm has on the host its user reached (decision 048); null for no firm. */
export async function productPartsOf(ctx: ServerContext, firmId: number, host: string | undefined): Promise<ProductPart[] | null> {
  const firm = await findFirm(ctx.database, firmId);
  if (!firm) return null;
  const parts: ProductPart[] = enabledFeatures(firm, host);
  if (await demoResetAvailable(ctx, firmId)) parts.push("DEMO_RESET");
  return parts;
}
