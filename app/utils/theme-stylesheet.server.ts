import { type ConvertCSSVariablesInput, DEFAULT_THEME, convertCssVariables, defaultCssVariablesResolver, mergeMantineTheme } from "@mantine/core";
import { keptResults } from "../common/kept-results";
import { cssVariablesResolver } from "./readable-colors.server";
import { THEME_STYLESHEET_PATH } from "./theme";
import { firmTheme } from "./theme-spec.server";

// The theme's CSS variables as a stylesheet of their own, linked from every page and cached by
// the browser, instead of the 11 KB `style` element MantineProvider writes into every page. The
// same text MantineProvider writes (its default variables left out), from the same theme.

/** The firm colours and option a theme is built from: all a stylesheet's address carries. */
export interface ThemeInputs {
  primary?: string;
  secondary?: string;
  accessible: boolean;
}

/**
 * Mantine's default theme as Mantine first had it: its own theme merge (MantineProvider's too)
 * writes a theme's font family into `DEFAULT_THEME.headings`, whose font is the body's by default.
 */
const mantineDefaults = () => ({ ...DEFAULT_THEME, headings: { ...DEFAULT_THEME.headings, fontFamily: DEFAULT_THEME.fontFamily } });

const DEFAULT_VARIABLES = defaultCssVariablesResolver(mantineDefaults());

function withoutDefaults(input: ConvertCSSVariablesInput): ConvertCSSVariablesInput {
  const changed = (section: keyof ConvertCSSVariablesInput) =>
    Object.fromEntries(Object.entries(input[section]).filter(([key, value]) => DEFAULT_VARIABLES[section][key as `--${string}`] !== value));
  return { variables: changed("variables"), light: changed("light"), dark: changed("dark") };
}

function stylesheetOf(inputs: ThemeInputs): string {
  const theme = mergeMantineTheme(mantineDefaults(), firmTheme({ primary_color: inputs.primary, secondary_color: inputs.secondary }, inputs.accessible));
  const base = defaultCssVariablesResolver(theme);
  const firm = cssVariablesResolver(theme);
  const merged = {
    variables: { ...base.variables, ...firm.variables },
    light: { ...base.light, ...firm.light },
    dark: { ...base.dark, ...firm.dark },
  };
  return convertCssVariables(withoutDefaults(merged), ":root");
}

const stylesheets = keptResults<{ css: string; version: string }>(64);

/** The stylesheet's text and a short digest of it (the address changes when the text does). */
export function themeStylesheet(inputs: ThemeInputs): { css: string; version: string } {
  return stylesheets(`${inputs.primary ?? ""}|${inputs.secondary ?? ""}|${inputs.accessible}`, () => {
    const css = stylesheetOf(inputs);
    return { css, version: digest(css) };
  });
}

/** FNV-1a over the text, in base 36: enough to tell two versions of one firm's stylesheet apart. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The stylesheet's address: the theme's inputs and the digest of its text. */
export function themeStylesheetHref(inputs: ThemeInputs): string {
  const params = new URLSearchParams({ v: themeStylesheet(inputs).version });
  if (inputs.primary) params.set("primary", inputs.primary);
  if (inputs.secondary) params.set("secondary", inputs.secondary);
  if (inputs.accessible) params.set("accessible", "1");
  return `${THEME_STYLESHEET_PATH}?${params}`;
}

/** The inputs an address of `themeStylesheetHref` names. */
export function themeInputsOf(params: URLSearchParams): ThemeInputs {
  return { primary: params.get("primary") ?? undefined, secondary: params.get("secondary") ?? undefined, accessible: params.get("accessible") === "1" };
}
