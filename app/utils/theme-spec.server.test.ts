import { generateColors } from "@mantine/colors-generator";
import chroma from "chroma-js";
import { describe, expect, it } from "vitest";
import { CONTRAST_THRESHOLD, DEFAULT_THEME_SPEC, buildTheme } from "./theme";
import { accessibleShade, firmTheme, themeSpecOf } from "./theme-spec.server";

describe("firm theme", () => {
  it("falls back to the default primary colour when the stored one is invalid", () => {
    const theme = firmTheme({ primary_color: "not-a-colour" }, false);
    expect(theme.colors?.firm).toEqual(generateColors("#1c4f8a"));
  });

  it("picks a shade that reads on white at 4.5:1", () => {
    const palette = generateColors("#8ecae6");
    const shade = accessibleShade(palette);
    expect(chroma.contrast(palette[shade], "#fff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
    const theme = firmTheme({ primary_color: "#8ecae6" }, true);
    expect(theme.primaryShade).toEqual({ light: shade, dark: 8 });
  });

  it("reads at 4.5:1 with the default colours too, without the accessible-colours option", () => {
    const theme = firmTheme(null, false);
    const shade = accessibleShade(generateColors("#1c4f8a"));
    expect(theme.primaryShade).toEqual({ light: shade, dark: 8 });
    expect(chroma.contrast(generateColors("#1c4f8a")[shade], "#fff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
  });

  it("gives the browser, without the root's data, the same default theme the server works out", () => {
    expect(DEFAULT_THEME_SPEC).toEqual(themeSpecOf(null, false));
  });

  it("names the colours whose filled variant takes black text: yellow among Mantine's, and a pale firm colour", () => {
    expect(themeSpecOf({ primary_color: "#1c4f8a" }, false).blackText).not.toContain("firm");
    expect(themeSpecOf({ primary_color: "#f5d90a" }, false).blackText).toEqual(expect.arrayContaining(["yellow", "firm"]));
  });

  it("builds one theme object for equal specs, as the root's data brings a new copy after each load", () => {
    const spec = themeSpecOf({ primary_color: "#2f9e44" }, true);
    expect(buildTheme(JSON.parse(JSON.stringify(spec)) as typeof spec)).toBe(buildTheme(spec));
    expect(buildTheme({ ...spec, accessibleColors: false })).not.toBe(buildTheme(spec));
  });
});
