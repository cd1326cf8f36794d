import { generateColors } from "@mantine/colors-generator";
import { type MantineColorsTuple, createTheme } from "@mantine/core";
import chroma from "chroma-js";
import { DEFAULT_PRIMARY_COLOR, DEFAULT_SECONDARY_COLOR, normaliseColor } from "../common/firm-schema";
import { keptResults } from "../common/kept-results";
import { CONTRAST_THRESHOLD, LUMINANCE_THRESHOLD, variantColorResolver } from "./readable-colors";

export { CONTRAST_THRESHOLD } from "./readable-colors";
export const DRAWER_WIDTH = 298;
export const TOOLBAR_HEIGHT = 70;

/** The first shade of a palette that reads on white at the spec's 4.5 contrast, from 6 down the scale. */
export function accessibleShade(palette: MantineColorsTuple): 6 | 7 | 8 | 9 {
  for (const shade of [6, 7, 8, 9] as const) {
    if (chroma.contrast(palette[shade], "#ffffff") >= CONTRAST_THRESHOLD) return shade;
  }
  return 9;
}

/**
 * Mantine theme from the firm's colours (invalid ones fall back). The primary shade is always
 * one that reads on white at 4.5:1; the accessible-colours option adds underlined links and an
 * always-visible focus ring.
 */
export function buildTheme(branding: { primary_color?: string; secondary_color?: string } | null, accessibleColors: boolean) {
  // Kept per firm colours: generating two palettes and their contrast search costs every page.
  return themes(`${branding?.primary_color ?? ""}|${branding?.secondary_color ?? ""}|${accessibleColors}`, () => themeOf(branding, accessibleColors));
}

const themes = keptResults<ReturnType<typeof createTheme>>(64);

function themeOf(branding: { primary_color?: string; secondary_color?: string } | null, accessibleColors: boolean) {
  const primary = generateColors(normaliseColor(branding?.primary_color) ?? DEFAULT_PRIMARY_COLOR);
  const secondary = generateColors(normaliseColor(branding?.secondary_color) ?? DEFAULT_SECONDARY_COLOR);
  return createTheme({
    primaryColor: "firm",
    colors: { firm: primary, firmSecondary: secondary },
    primaryShade: { light: accessibleShade(primary), dark: 8 },
    autoContrast: true,
    luminanceThreshold: LUMINANCE_THRESHOLD,
    variantColorResolver,
    defaultRadius: "sm",
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    focusRing: accessibleColors ? "always" : "auto",
    components: {
      Tooltip: { defaultProps: { openDelay: 500 } },
      // Spec §9: the default form field style is underlined (drawn in app/styles/app.css).
      Input: { defaultProps: { variant: "underlined" } },
    },
    other: { accessibleColors },
  });
}
