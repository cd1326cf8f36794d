import { type CSSVariablesResolver, type MantineColorsTuple, type MantineTheme } from "@mantine/core";
import chroma from "chroma-js";
import { keptResults } from "../common/kept-results";
import { CONTRAST_THRESHOLD, LUMINANCE_THRESHOLD } from "./theme";

// Mantine picks fixed shades for a colour's filled, light, outline and text uses (shade 6 on
// white, 4 and 3 on dark grey); many read below the spec's 4.5:1 (white on orange, red on its
// own pale tint, the firm's blue links on dark). Here each colour gets, per scheme, the nearest
// shade that reads on the surfaces it is drawn on, or a darker/lighter tone of its end shade.

/** Mantine's light variant: the colour at this opacity over the surface. */
const LIGHT_ALPHA = { light: 0.1, dark: 0.15 };

/** A shade of a palette (Mantine's have ten: 0 to 9). */
const hex = (palette: MantineColorsTuple, shade: number): string => palette[shade] ?? palette[9];
const reads = (color: string, surfaces: string[]) => surfaces.every((s) => chroma.contrast(color, s) >= CONTRAST_THRESHOLD);

/**
 * The first shade, in the order given, that reads on every surface; else the last one darkened
 * (on light surfaces) or lightened (on dark ones) until it does.
 */
export function readableTone(palette: MantineColorsTuple, shades: number[], surfaces: string[], name: string): string {
  const shade = shades.find((s) => reads(hex(palette, s), surfaces));
  if (shade !== undefined) return `var(--mantine-color-${name}-${shade})`;
  const lightSurfaces = chroma(surfaces[0] ?? "#ffffff").luminance() > LUMINANCE_THRESHOLD;
  let tone = chroma(hex(palette, shades[shades.length - 1] ?? 9));
  for (let step = 0; step < 40 && !reads(tone.hex(), surfaces); step++) tone = lightSurfaces ? tone.darken(0.1) : tone.brighten(0.1);
  return tone.hex();
}

const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (to >= from ? from + i : from - i));
const tint = (surfaces: string[], color: string, alpha: number) => surfaces.map((s) => chroma.mix(s, color, alpha, "rgb").hex());

function shadeOf(theme: MantineTheme, scheme: "light" | "dark"): number {
  const shade = theme.primaryShade;
  return typeof shade === "number" ? shade : shade[scheme];
}

const blackText = keptResults<boolean>(256);

/** White text on a filled colour when its darkest shade carries it, else black (yellow, orange). */
export function takesBlackText(palette: MantineColorsTuple | undefined): boolean {
  return palette ? blackText(palette[9], () => chroma.contrast(palette[9], "#ffffff") < CONTRAST_THRESHOLD) : false;
}

/** A colour's variables in one scheme, each a shade that reads where Mantine draws it. */
export function readableColorVariables(
  name: string,
  palette: MantineColorsTuple,
  scheme: "light" | "dark",
  shades: { light: number; dark: number },
  surfaces: string[],
): Record<string, string> {
  const black = takesBlackText(palette);
  const tone = (order: number[], on: string[]) => readableTone(palette, order, on, name);
  const filled = (shade: number) => (black ? tone(range(shade, 0), ["#000000"]) : tone(range(shade, 9), ["#ffffff"]));
  if (scheme === "light") {
    const p = shades.light;
    const text = tone(range(p, 9), surfaces);
    return {
      [`--mantine-color-${name}-filled`]: filled(p),
      [`--mantine-color-${name}-text`]: text,
      [`--mantine-color-${name}-outline`]: text,
      [`--mantine-color-${name}-light-color`]: tone(range(p, 9), tint(surfaces, hex(palette, p), LIGHT_ALPHA.light)),
    };
  }
  const d = shades.dark;
  const text = tone(range(4, 0), surfaces);
  return {
    [`--mantine-color-${name}-filled`]: filled(d),
    [`--mantine-color-${name}-text`]: text,
    [`--mantine-color-${name}-outline`]: text,
    [`--mantine-color-${name}-light-color`]: tone(range(Math.max(d - 5, 0), 0), tint(surfaces, hex(palette, Math.max(d - 2, 0)), LIGHT_ALPHA.dark)),
  };
}

/**
 * Every colour's readable shades, and the secondary ("dimmed") text, links and error text on
 * the body and the grey panels of both schemes.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) =>
  // The same colours give the same variables: computed once, not on every page (chroma-js's
  // contrast search costs a few milliseconds of each render).
  resolvedVariables(variablesKey(theme), () => resolveVariables(theme));

const resolvedVariables = keptResults<ReturnType<CSSVariablesResolver>>(64);

const variablesKey = (theme: MantineTheme) =>
  [
    theme.primaryColor,
    JSON.stringify(theme.primaryShade),
    theme.white,
    ...Object.entries(theme.colors).map(([name, palette]) => `${name}:${palette?.join(",") ?? ""}`),
  ].join("|");

function resolveVariables(theme: MantineTheme): ReturnType<CSSVariablesResolver> {
  const shades = { light: shadeOf(theme, "light"), dark: shadeOf(theme, "dark") };
  const surfaces = { light: [theme.white, theme.colors.gray[1]], dark: [theme.colors.dark[7], theme.colors.dark[6]] };
  const perScheme = (scheme: "light" | "dark") =>
    Object.assign(
      {},
      ...Object.entries(theme.colors).flatMap(([name, palette]) => (palette ? [readableColorVariables(name, palette, scheme, shades, surfaces[scheme])] : [])),
    );
  const primaryText = takesBlackText(theme.colors[theme.primaryColor]) ? "var(--mantine-color-black)" : "var(--mantine-color-white)";
  // Secondary ("dimmed") text: a grey that reads on each scheme's body and panels.
  const schemeVariables = (scheme: "light" | "dark", dimmed: string) => ({
    "--mantine-primary-color-contrast": primaryText,
    ...perScheme(scheme),
    "--mantine-color-dimmed": dimmed,
    "--mantine-color-error": "var(--mantine-color-red-text)",
    "--mantine-color-anchor": `var(--mantine-color-${theme.primaryColor}-text)`,
  });
  return { variables: {}, light: schemeVariables("light", "var(--mantine-color-gray-7)"), dark: schemeVariables("dark", "var(--mantine-color-dark-1)") };
}
