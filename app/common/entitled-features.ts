// Spec §6: the firm's entitled features switch product parts on and off; the retrieve feature
// follows the host instead (development and local hosts only). One answer for the API and the
// console, so a part is never offered on one side and refused on the other (decision 048).

/** What a firm buys (spec §3 service kinds): AI title extraction and ECFX Track case tracking. */
export const ENTITLED_FEATURES = ["FAI_TITLE_EXTRACTION", "ECFX_TRACK"] as const;
export type EntitledFeature = (typeof ENTITLED_FEATURES)[number];

/** Every switchable part: the entitled ones, and case retrieve, which only the host decides. */
export type ProductFeature = EntitledFeature | "RETRIEVE";

export function isEntitledFeature(value: unknown): value is EntitledFeature {
  return typeof value === "string" && (ENTITLED_FEATURES as readonly string[]).includes(value);
}

const LOCAL_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
/** Labels that name a development installation: dev.ecfx.com, ecfx-dev.example.com, app.local. */
const DEVELOPMENT_LABELS = new Set(["dev", "development", "local", "localhost"]);

/** Whether the console's host is a development or local one ("localhost:3000", "dev.ecfx.com", "team-dev.ecfx.com"). */
export function isDevelopmentHost(host: string | null | undefined): boolean {
  const name = (host ?? "").trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (!name) return false;
  if (LOCAL_NAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
  return name.split(".").some((label) => DEVELOPMENT_LABELS.has(label) || label.endsWith("-dev"));
}

/** Whether a feature is on for this firm on this host; the one question both sides ask. */
export function featureEnabled(firm: { entitled_features: readonly string[] }, feature: ProductFeature, host?: string | null): boolean {
  if (feature === "RETRIEVE") return isDevelopmentHost(host);
  return firm.entitled_features.includes(feature);
}

/** The features that are on, in a stable order. */
export function enabledFeatures(firm: { entitled_features: readonly string[] }, host?: string | null): ProductFeature[] {
  return ([...ENTITLED_FEATURES, "RETRIEVE"] as const).filter((feature) => featureEnabled(firm, feature, host));
}

/** Two lists name the same features, whatever their order or repetitions. */
export function sameFeatures(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((f) => right.has(f));
}

/** A console page or API area that only some firms or installations have: a feature, or the demo reset. */
export type ProductPart = ProductFeature | "DEMO_RESET";
