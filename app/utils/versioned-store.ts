// Locally stored data carries a version marker; data of another version is discarded (spec §4).
export const THEME_STORE_VERSION = 1;
export const FIRM_STORE_VERSION = 2;

export interface ThemeStore {
  darkMode: boolean;
  accessibleColors: boolean;
  drawerOpen: boolean;
}

export const DEFAULT_THEME: ThemeStore = { darkMode: false, accessibleColors: false, drawerOpen: true };

export function readVersioned<T extends object>(raw: unknown, version: number, defaults: T): T {
  if (!raw || typeof raw !== "object" || (raw as { v?: unknown }).v !== version) return { ...defaults };
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = (raw as Record<string, unknown>)[key as string];
    if (typeof value === typeof defaults[key]) out[key] = value as T[keyof T];
  }
  return out;
}

export function writeVersioned<T extends object>(value: T, version: number): T & { v: number } {
  return { ...value, v: version };
}
