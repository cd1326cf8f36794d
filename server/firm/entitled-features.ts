import { type EntitledFeature, type ProductFeature, enabledFeatures, featureEnabled, isEntitledFeature } from "../../app/common/entitled-features";
import type { Database } from "../db/database";
import { notFound } from "../lib/errors";

// The server's side of spec §6's entitled features (decision 048). The answer itself is
// app/common/entitled-features.ts, shared with the console; this adds what only the server does.

export { enabledFeatures, featureEnabled };

/**
 * Ends a request for a part of the product the firm does not have on this host with 404, as an
 * address that does not exist: a firm learns nothing of parts it was not given. Every feature's
 * endpoints call it first (the AI title extraction and ECFX Track calls among them).
 */
export function requireFeature(firm: { entitled_features: readonly string[] }, feature: ProductFeature, caseRetrieve = false): void {
  if (!featureEnabled(firm, feature, caseRetrieve)) throw notFound();
}

/** Sets what a firm bought; the operator's command, never a firm's own settings save. */
export async function setEntitledFeatures(database: Database, firmId: number, features: readonly string[], now: number): Promise<EntitledFeature[]> {
  const unknown = features.filter((f) => !isEntitledFeature(f));
  if (unknown.length) throw new Error(`unknown feature ${unknown.join(", ")}`);
  const list = [...new Set(features)] as EntitledFeature[];
  const updated = await database.db
    .updateTable("firm")
    .set({ entitled_features: JSON.stringify(list), updated_at: now })
    .where("id", "=", firmId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new Error(`no firm ${firmId}`);
  return list;
}
