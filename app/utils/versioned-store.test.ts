import { describe, expect, it } from "vitest";
import { DEFAULT_THEME, THEME_STORE_VERSION, readVersioned, writeVersioned } from "./versioned-store";

describe("versioned local stores", () => {
  it("reads back what it wrote", () => {
    const theme = { darkMode: true, accessibleColors: true, drawerOpen: false };
    expect(readVersioned(writeVersioned(theme, THEME_STORE_VERSION), THEME_STORE_VERSION, DEFAULT_THEME)).toEqual(theme);
  });

  it("discards data of another version", () => {
    expect(readVersioned({ v: 0, darkMode: true }, THEME_STORE_VERSION, DEFAULT_THEME)).toEqual(DEFAULT_THEME);
  });

  it("ignores fields of the wrong type", () => {
    expect(readVersioned({ v: 1, darkMode: "yes" }, THEME_STORE_VERSION, DEFAULT_THEME).darkMode).toBe(false);
  });
});
