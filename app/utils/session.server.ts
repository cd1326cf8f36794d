import { type SessionStorage, createCookie, createSession } from "@remix-run/node";
import { keptResults } from "../common/kept-results";
import { decrypt, encrypt } from "./encrypted-cookie.server";
import { cookieSecure } from "./env.server";

/** The signed-in user's state (spec §3 "Auth state"), kept only in the encrypted cookie. */
export interface AuthSession {
  userId: string;
  email: string;
  fullName: string;
  securityRoleId: string;
  firmId: number;
  authToken: string;
  refreshToken: string;
  /** Milliseconds since the epoch when the access token expires. */
  expirationTime: number;
}

export const SESSION_USER_KEY = "user";
const SESSION_DAYS = 30;
const cookie = createCookie("ecfx_session", { httpOnly: true, sameSite: "lax", path: "/", maxAge: SESSION_DAYS * 24 * 3600 });

// A page reads the session in three loaders, and a browser sends the same Cookie header with every
// page. Remix decodes a cookie's value character by character (its own unescape, a regular
// expression per character): about 3 % of a list page's allocations for each reading. The sealed
// value a header holds is kept, as what each sealed value opens to is (decision 073); a header
// longer than a browser sends for a few cookies is read every time, so the kept headers stay small.
const KEPT_HEADERS = 500;
const LONGEST_KEPT_HEADER = 8_192;
const sealedValues = keptResults<Promise<string | null>>(KEPT_HEADERS, LONGEST_KEPT_HEADER);
const sealedIn = (header: string) => sealedValues(header, async () => ((await cookie.parse(header)) as string | null) ?? null);

/**
 * A Remix SessionStorage whose whole content is sealed into the cookie (JWE). It is made per
 * request because whether the cookie is Secure depends on how the console is reached.
 */
export function sessionStorageFor(request: Request): SessionStorage {
  const secure = cookieSecure(request);
  return {
    async getSession(cookieHeader) {
      const sealed = cookieHeader ? await sealedIn(cookieHeader) : null;
      const data = sealed ? await decrypt<Record<string, unknown>>(sealed) : null;
      return createSession(data ?? {}, "");
    },
    async commitSession(session) {
      return cookie.serialize(await encrypt(session.data), { secure });
    },
    async destroySession() {
      return cookie.serialize("", { secure, maxAge: 0, expires: new Date(0) });
    },
  };
}

export async function readSession(request: Request): Promise<AuthSession | null> {
  const session = await sessionStorageFor(request).getSession(request.headers.get("Cookie"));
  return (session.get(SESSION_USER_KEY) as AuthSession | undefined) ?? null;
}

export async function writeSession(request: Request, auth: AuthSession): Promise<string> {
  const storage = sessionStorageFor(request);
  const session = await storage.getSession(null);
  session.set(SESSION_USER_KEY, auth);
  return storage.commitSession(session);
}

export async function clearSession(request: Request): Promise<string> {
  const storage = sessionStorageFor(request);
  return storage.destroySession(await storage.getSession(null));
}
