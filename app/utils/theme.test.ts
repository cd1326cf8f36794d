import { generateColors } from "@mantine/colors-generator";
import chroma from "chroma-js";
import { describe, expect, it } from "vitest";
import { CONTRAST_THRESHOLD, accessibleShade, buildTheme } from "./theme";

describe("firm theme", () => {
  it("falls back to the default primary colour when the stored one is invalid", () => {
    const theme = buildTheme({ primary_color: "not-a-colour" }, false);
    expect(theme.colors?.firm).toEqual(generateColors("#1c4f8a"));
  });

  it("picks a shade that reads on white at 4.5:1", () => {
    const palette = generateColors("#8ecae6");
    const shade = accessibleShade(palette);
    expect(chroma.contrast(palette[shade], "#fff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
    const theme = buildTheme({ primary_color: "#8ecae6" }, true);
    expect(theme.primaryShade).toEqual({ light: shade, dark: 8 });
  });

  it("reads at 4.5:1 with the default colours too, without the accessible-colours option", () => {
    const theme = buildTheme(null, false);
    const shade = accessibleShade(generateColors("#1c4f8a"));
    expect(theme.primaryShade).toEqual({ light: shade, dark: 8 });
    expect(chroma.contrast(generateColors("#1c4f8a")[shade], "#fff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
  });
});
