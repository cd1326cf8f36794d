import { appCookie } from "./cookies.server";
import { DEFAULT_THEME, THEME_STORE_VERSION, type ThemeStore, readVersioned, writeVersioned } from "./versioned-store";

const cookie = appCookie<unknown>("ecfx_theme", { maxAge: 365 * 24 * 3600 });

export async function readTheme(request: Request): Promise<ThemeStore> {
  return readVersioned(await cookie.read(request), THEME_STORE_VERSION, DEFAULT_THEME);
}

export function writeTheme(request: Request, theme: ThemeStore): Promise<string> {
  return cookie.write(request, writeVersioned(theme, THEME_STORE_VERSION));
}
