import { describe, expect, it } from "vitest";
import { enabledFeatures, featureEnabled, isDevelopmentHost, sameFeatures } from "./entitled-features";

describe("which features a firm has on a host", () => {
  it("takes the AI title extraction and ECFX Track from the firm's entitled features alone", () => {
    const firm = { entitled_features: ["ECFX_TRACK"] };
    expect(featureEnabled(firm, "ECFX_TRACK", "console.ecfx.com")).toBe(true);
    expect(featureEnabled(firm, "ECFX_TRACK", "localhost")).toBe(true);
    expect(featureEnabled(firm, "FAI_TITLE_EXTRACTION", "localhost")).toBe(false);
    expect(featureEnabled({ entitled_features: ["TRACK", "fai_title_extraction"] }, "ECFX_TRACK")).toBe(false);
  });

  it("turns retrieve on for development and local hosts only, whatever the firm bought", () => {
    const everything = { entitled_features: ["FAI_TITLE_EXTRACTION", "ECFX_TRACK"] };
    for (const host of [
      "localhost",
      "localhost:3000",
      "LOCALHOST.",
      "127.0.0.1:8080",
      "[::1]:3000",
      "demo.localhost",
      "dev.ecfx.com",
      "team-dev.ecfx.com",
      "app.local",
    ]) {
      expect([host, isDevelopmentHost(host), featureEnabled({ entitled_features: [] }, "RETRIEVE", host)]).toEqual([host, true, true]);
    }
    for (const host of ["console.ecfx.com", "chair.example.test", "developer.example.com", "devon-law.com", "", null, undefined]) {
      expect([host, featureEnabled(everything, "RETRIEVE", host)]).toEqual([host, false]);
    }
  });

  it("lists the features that are on in one order, and compares lists as sets", () => {
    expect(enabledFeatures({ entitled_features: ["ECFX_TRACK", "FAI_TITLE_EXTRACTION"] }, "localhost")).toEqual([
      "FAI_TITLE_EXTRACTION",
      "ECFX_TRACK",
      "RETRIEVE",
    ]);
    expect(sameFeatures(["ECFX_TRACK", "FAI_TITLE_EXTRACTION"], ["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "ECFX_TRACK"])).toBe(true);
    expect(sameFeatures(["ECFX_TRACK"], [])).toBe(false);
  });
});
