import { generateColors } from "@mantine/colors-generator";
import { DEFAULT_THEME, type MantineColorsTuple } from "@mantine/core";
import chroma from "chroma-js";
import { DEFAULT_PRIMARY_COLOR, DEFAULT_SECONDARY_COLOR, normaliseColor } from "../common/firm-schema";
import { keptResults } from "../common/kept-results";
import { takesBlackText } from "./readable-colors.server";
import { CONTRAST_THRESHOLD, type ThemeSpec, buildTheme } from "./theme";

/** The first shade of a palette that reads on white at the spec's 4.5 contrast, from 6 down the scale. */
export function accessibleShade(palette: MantineColorsTuple): 6 | 7 | 8 | 9 {
  for (const shade of [6, 7, 8, 9] as const) {
    if (chroma.contrast(palette[shade], "#ffffff") >= CONTRAST_THRESHOLD) return shade;
  }
  return 9;
}

type Branding = { primary_color?: string | null; secondary_color?: string | null } | null;

// Kept per firm colours: generating two palettes and their contrast search costs every page.
const specs = keptResults<ThemeSpec>(64);

/** The firm's palettes (invalid colours fall back to the defaults) and the shades and text colours that read on them. */
export function themeSpecOf(branding: Branding, accessibleColors: boolean): ThemeSpec {
  return specs(`${branding?.primary_color ?? ""}|${branding?.secondary_color ?? ""}|${accessibleColors}`, () => {
    const firm = generateColors(normaliseColor(branding?.primary_color) ?? DEFAULT_PRIMARY_COLOR);
    const firmSecondary = generateColors(normaliseColor(branding?.secondary_color) ?? DEFAULT_SECONDARY_COLOR);
    const colors = { ...DEFAULT_THEME.colors, firm, firmSecondary };
    const blackText = Object.entries(colors).flatMap(([name, palette]) => (takesBlackText(palette) ? [name] : []));
    return { colors: { firm, firmSecondary }, primaryShade: accessibleShade(firm), blackText, accessibleColors };
  });
}

/** The Mantine theme of a firm's colours, as the browser builds it from the spec. */
export const firmTheme = (branding: Branding, accessibleColors: boolean) => buildTheme(themeSpecOf(branding, accessibleColors));
