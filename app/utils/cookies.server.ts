import { type CookieSerializeOptions, createCookie } from "@remix-run/node";
import { cookieSecure } from "./env.server";

// Our cookies are all HttpOnly, SameSite=Lax and site-wide; Secure follows the console setting
// per request. Values go through Remix's cookie encoding (JSON, base64).
const base = { httpOnly: true, sameSite: "lax", path: "/" } as const;

export interface AppCookie<T> {
  read(request: Request): Promise<T | null>;
  write(request: Request, value: T, options?: CookieSerializeOptions): Promise<string>;
  clear(request: Request): Promise<string>;
}

export function appCookie<T>(name: string, options: CookieSerializeOptions = {}): AppCookie<T> {
  const cookie = createCookie(name, { ...base, ...options });
  return {
    async read(request) {
      return ((await cookie.parse(request.headers.get("Cookie"))) as T | null) ?? null;
    },
    write(request, value, extra = {}) {
      return cookie.serialize(value, { secure: cookieSecure(request), ...extra });
    },
    clear(request) {
      return cookie.serialize("", { secure: cookieSecure(request), maxAge: 0, expires: new Date(0) });
    },
  };
}
