import { generateColors } from "@mantine/colors-generator";
import { DEFAULT_THEME, type MantineColorsTuple, mergeMantineTheme } from "@mantine/core";
import chroma from "chroma-js";
import { describe, expect, it } from "vitest";
import { cssVariablesResolver, readableTone, takesBlackText } from "./readable-colors.server";
import { CONTRAST_THRESHOLD, variantColorResolver } from "./theme";
import { firmTheme } from "./theme-spec.server";

const theme = mergeMantineTheme(DEFAULT_THEME, firmTheme(null, false));
const variables = cssVariablesResolver(theme);

/** A variable's colour: a `var(--mantine-color-x-n)` shade looked up in the theme, or a hex value. */
function colorOf(value: string | undefined): string {
  const shade = value?.match(/^var\(--mantine-color-(\w+)-(\d)\)$/);
  if (shade) return theme.colors[shade[1]!]![Number(shade[2])]!;
  expect(value).toMatch(/^#[0-9a-f]{6}$/);
  return value!;
}

const LIGHT = ["#ffffff", theme.colors.gray[1]];
const DARK = [theme.colors.dark[7], theme.colors.dark[6]];

describe("readable colours", () => {
  for (const name of ["red", "orange", "yellow", "blue", "green", "gray", "firm", "firmSecondary"]) {
    it(`${name} text reads at 4.5:1 on the body and panels of both schemes`, () => {
      for (const [scheme, surfaces] of [
        ["light", LIGHT],
        ["dark", DARK],
      ] as const) {
        const text = colorOf(variables[scheme][`--mantine-color-${name}-text`]);
        for (const surface of surfaces) expect(chroma.contrast(text, surface)).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
      }
    });

    it(`${name} filled badges and buttons carry their text at 4.5:1`, () => {
      const text = takesBlackText(theme.colors[name]) ? "#000000" : "#ffffff";
      for (const scheme of ["light", "dark"] as const) {
        expect(chroma.contrast(colorOf(variables[scheme][`--mantine-color-${name}-filled`]), text)).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
      }
      const resolved = variantColorResolver({ color: name, theme, variant: "filled" });
      expect(resolved.color).toBe(text === "#000000" ? "var(--mantine-color-black)" : "var(--mantine-color-white)");
    });
  }

  it("secondary text, links and errors use the readable variables", () => {
    expect(chroma.contrast(theme.colors.gray[7], "#ffffff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
    expect(variables.light["--mantine-color-dimmed"]).toBe("var(--mantine-color-gray-7)");
    expect(variables.dark["--mantine-color-dimmed"]).toBe("var(--mantine-color-dark-1)");
    expect(variables.dark["--mantine-color-anchor"]).toBe("var(--mantine-color-firm-text)");
    expect(variables.light["--mantine-color-error"]).toBe("var(--mantine-color-red-text)");
  });

  it("darkens the last shade when no shade of a pale palette reads on white", () => {
    const pale = generateColors("#fff3bf") as MantineColorsTuple;
    const tone = readableTone(pale, [6, 7, 8, 9], ["#ffffff"], "pale");
    expect(tone).toMatch(/^#/);
    expect(chroma.contrast(tone, "#ffffff")).toBeGreaterThanOrEqual(CONTRAST_THRESHOLD);
  });
});
