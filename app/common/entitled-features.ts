// Spec §6: the firm's entitled features switch product parts on and off; case retrieve follows the
// installation's setting instead (ECFX_CASE_RETRIEVE: development installations), never anything a
// caller sends, such as the Host header. One answer for the API and the console, so a part is never
// offered on one side and refused on the other (decision 048).

/** What a firm buys (spec §3 service kinds): AI title extraction and ECFX Track case tracking. */
export const ENTITLED_FEATURES = ["FAI_TITLE_EXTRACTION", "ECFX_TRACK"] as const;
export type EntitledFeature = (typeof ENTITLED_FEATURES)[number];

/** Every switchable part: the entitled ones, and case retrieve, which only the installation decides. */
export type ProductFeature = EntitledFeature | "RETRIEVE";

export function isEntitledFeature(value: unknown): value is EntitledFeature {
  return typeof value === "string" && (ENTITLED_FEATURES as readonly string[]).includes(value);
}

/** Whether a feature is on for this firm on an installation with or without case retrieve; the one question both sides ask. */
export function featureEnabled(firm: { entitled_features: readonly string[] }, feature: ProductFeature, caseRetrieve = false): boolean {
  if (feature === "RETRIEVE") return caseRetrieve;
  return firm.entitled_features.includes(feature);
}

/** The features that are on, in a stable order. */
export function enabledFeatures(firm: { entitled_features: readonly string[] }, caseRetrieve = false): ProductFeature[] {
  return ([...ENTITLED_FEATURES, "RETRIEVE"] as const).filter((feature) => featureEnabled(firm, feature, caseRetrieve));
}

/** Two lists name the same features, whatever their order or repetitions. */
export function sameFeatures(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((f) => right.has(f));
}

/** A console page or API area that only some firms or installations have: a feature, or the demo reset. */
export type ProductPart = ProductFeature | "DEMO_RESET";
