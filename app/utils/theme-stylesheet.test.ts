import { DEFAULT_THEME, MantineProvider, mergeMantineTheme } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { cssVariablesResolver } from "./readable-colors.server";
import { firmTheme } from "./theme-spec.server";
import { themeInputsOf, themeStylesheet, themeStylesheetHref } from "./theme-stylesheet.server";

/** The variables MantineProvider itself writes into a page for this theme. */
function providerVariables(primary: string | undefined, secondary: string | undefined, accessible: boolean): string {
  const html = renderToStaticMarkup(
    createElement(MantineProvider, {
      theme: firmTheme({ primary_color: primary, secondary_color: secondary }, accessible),
      cssVariablesResolver,
      forceColorScheme: "light",
      withGlobalClasses: false,
      children: null,
    }),
  );
  return /<style data-mantine-styles="true">([\s\S]*)<\/style>/.exec(html)?.[1] ?? "";
}

describe("theme stylesheet", () => {
  it("holds the same variables when a theme merge has already written its font into Mantine's defaults", async () => {
    // What MantineProvider does on every render, and another module may do before this one loads.
    mergeMantineTheme(DEFAULT_THEME, firmTheme(null, false));
    vi.resetModules();
    const loadedLater = await import("./theme-stylesheet.server");
    expect(loadedLater.themeStylesheet({ accessible: false }).css).toBe(providerVariables(undefined, undefined, false));
  });

  it.each([
    [undefined, undefined, false],
    ["#1c4f8a", "#c8a24a", false],
    ["#f5d90a", "#e03131", true],
  ])("holds exactly the variables MantineProvider writes (%s, %s, accessible %s)", (primary, secondary, accessible) => {
    const expected = providerVariables(primary, secondary, accessible);
    expect(expected).toContain("--mantine-color-firm-filled");
    expect(themeStylesheet({ primary, secondary, accessible }).css).toBe(expected);
  });

  it("names its colours and a digest that changes with the text", () => {
    const inputs = { primary: "#1c4f8a", secondary: "#c8a24a", accessible: true };
    const href = themeStylesheetHref(inputs);
    const params = new URL(href, "http://console.test").searchParams;
    expect(themeInputsOf(params)).toEqual(inputs);
    expect(params.get("v")).toBe(themeStylesheet(inputs).version);
    expect(themeStylesheet({ ...inputs, primary: "#2f9e44" }).version).not.toBe(params.get("v"));
  });
});
