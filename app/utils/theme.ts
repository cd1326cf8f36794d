import type { MantineColorsTuple, VariantColorsResolver } from "@mantine/core";
import { keptResults } from "../common/kept-results";
import { createTheme, defaultVariantColorsResolver, parseThemeColor } from "./mantine-document";

// The browser's half of the firm theme: it draws from colours the server chose (theme-spec.server.ts),
// so the colour science (chroma-js, the palette generator) never ships to the browser.

/** Where the theme's CSS variables are served (theme-stylesheet.server.ts); with no colours named, the defaults'. */
export const THEME_STYLESHEET_PATH = "/theme.css";
export const DRAWER_WIDTH = 298;
export const TOOLBAR_HEIGHT = 70;
/** The spec's contrast for text on its background. */
export const CONTRAST_THRESHOLD = 4.5;
/** Where white and black text read equally: above it black is the better text on a colour. */
export const LUMINANCE_THRESHOLD = 0.179;

/** The firm's theme as the server worked it out: all a browser needs to build it. */
export interface ThemeSpec {
  colors: { firm: MantineColorsTuple; firmSecondary: MantineColorsTuple };
  /** The first shade of the firm's palette that reads on white at 4.5:1. */
  primaryShade: 6 | 7 | 8 | 9;
  /** The theme colours whose filled variant takes black text (their darkest shade cannot carry white). */
  blackText: string[];
  accessibleColors: boolean;
}

/** The default colours' spec, for a page drawn without the root's data (a root error); a test keeps it equal to the server's. */
export const DEFAULT_THEME_SPEC: ThemeSpec = {
  colors: {
    firm: ["#eef4fc", "#dce6f2", "#b3cae6", "#88addc", "#6595d3", "#4f86ce", "#437ecd", "#356cb5", "#2c60a3", "#1d5390"],
    firmSecondary: ["#fef7e4", "#f6ecd5", "#e9d8b0", "#dbc287", "#d0b064", "#c9a44e", "#c69e41", "#af8932", "#9c7a29", "#87691c"],
  },
  primaryShade: 7,
  blackText: ["green", "lime", "yellow", "orange"],
  accessibleColors: false,
};

/** Filled theme colours take the text colour their readable shades were chosen for. */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== "filled") return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  const black = (input.theme.other.blackText as string[] | undefined)?.includes(parsed.color) ?? false;
  return { ...colors, color: black ? "var(--mantine-color-black)" : "var(--mantine-color-white)" };
};

/**
 * Mantine theme from the firm's colours. The primary shade is always one that reads on white at
 * 4.5:1; the accessible-colours option adds underlined links and an always-visible focus ring.
 */
export function buildTheme(spec: ThemeSpec) {
  return themes(JSON.stringify(spec), () => themeOf(spec));
}

// Kept per spec: the document gets the same theme object on every render, so Mantine's provider
// does not merge it again and re-render every component under it after each navigation.
const themes = keptResults<ReturnType<typeof createTheme>>(64);

function themeOf(spec: ThemeSpec) {
  return createTheme({
    primaryColor: "firm",
    colors: spec.colors,
    primaryShade: { light: spec.primaryShade, dark: 8 },
    autoContrast: true,
    luminanceThreshold: LUMINANCE_THRESHOLD,
    variantColorResolver,
    defaultRadius: "sm",
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    focusRing: spec.accessibleColors ? "always" : "auto",
    components: {
      Tooltip: { defaultProps: { openDelay: 500 } },
      // Spec §9: the default form field style is underlined (drawn in app/styles/app.css).
      Input: { defaultProps: { variant: "underlined" } },
    },
    other: { accessibleColors: spec.accessibleColors, blackText: spec.blackText },
  });
}
