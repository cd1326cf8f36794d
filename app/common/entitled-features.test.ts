import { describe, expect, it } from "vitest";
import { enabledFeatures, featureEnabled, sameFeatures } from "./entitled-features";

describe("which features a firm has", () => {
  it("takes the AI title extraction and ECFX Track from the firm's entitled features alone", () => {
    const firm = { entitled_features: ["ECFX_TRACK"] };
    expect(featureEnabled(firm, "ECFX_TRACK")).toBe(true);
    expect(featureEnabled(firm, "ECFX_TRACK", true)).toBe(true);
    expect(featureEnabled(firm, "FAI_TITLE_EXTRACTION", true)).toBe(false);
    expect(featureEnabled({ entitled_features: ["TRACK", "fai_title_extraction"] }, "ECFX_TRACK")).toBe(false);
  });

  it("turns retrieve on by the installation's setting alone, whatever the firm bought", () => {
    const everything = { entitled_features: ["FAI_TITLE_EXTRACTION", "ECFX_TRACK"] };
    expect(featureEnabled(everything, "RETRIEVE")).toBe(false);
    expect(featureEnabled(everything, "RETRIEVE", false)).toBe(false);
    expect(featureEnabled({ entitled_features: [] }, "RETRIEVE", true)).toBe(true);
  });

  it("lists the features that are on in one order, and compares lists as sets", () => {
    expect(enabledFeatures({ entitled_features: ["ECFX_TRACK", "FAI_TITLE_EXTRACTION"] }, true)).toEqual(["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "RETRIEVE"]);
    expect(sameFeatures(["ECFX_TRACK", "FAI_TITLE_EXTRACTION"], ["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "ECFX_TRACK"])).toBe(true);
    expect(sameFeatures(["ECFX_TRACK"], [])).toBe(false);
  });
});
