import { data, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AccessKey, type UserRoleMap, canOpen } from "../common/access";
import type { ProductPart } from "../common/entitled-features";
import { onAccessChange } from "./access-stamps.server";
import { ApiError, type ApiRequest, apiJson, apiRequest, errorOf } from "./api.server";
import { type AuthSession, SESSION_USER_KEY, clearSession, readSession, sessionStorageFor, writeSession } from "./session.server";
import { boundedCache } from "../common/bounded-cache";
import { redirectWithToast } from "./toast.server";
import { sessionRefreshed } from "./refreshed-session.server";

export interface Me {
  id: string;
  email: string;
  fullName: string;
  displayName: string;
  timekeeperId: string | null;
  securityRoleId: string;
  firmId: number;
  roleName: string;
  isAdmin: boolean;
  userRole: UserRoleMap;
  /** The firm's dictionary version: the console reads the firm's words again when it moves. */
  dictionaryVersion: number;
  /** The parts of the product the firm has on the host the browser reached (decision 048). */
  parts: ProductPart[];
  /** Whether this user's page views are reported on this host (an analytics token set, no opt-out). */
  analytics: boolean;
}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const REFRESH_BEFORE_MS = 10 * 60 * 1000;

/** The client address as the reverse proxy in front of the console reported it, if any. */
export function forwardedFor(request: Request): string | null {
  return request.headers.get("X-Forwarded-For");
}

export function authenticatorFor(request: Request): Authenticator<AuthSession> {
  const authenticator = new Authenticator<AuthSession>(sessionStorageFor(request), { sessionKey: SESSION_USER_KEY, throwOnError: true });
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const username = String(form.get("email") ?? "");
      const password = String(form.get("password") ?? "");
      const response = await apiRequest("/auth/login", {
        method: "POST",
        // The firm of the host the browser reached is the only one whose users sign in here.
        json: { username, password, host: new URL(request.url).host },
        forwardedFor: forwardedFor(request),
      });
      if (!response.ok) {
        const error = await errorOf(response, "/auth/login");
        // The API's message (wrong credentials, throttled) is what the user should read.
        throw new Error(response.status < 500 ? (error.body.message ?? "errors:somethingWrong") : "errors:somethingWrong");
      }
      const answer = (await response.json()) as TokenAnswer & {
        user: { id: string; email: string; fullName: string; securityRoleId: string; firmId: number };
      };
      return sessionFromTokens(answer.user, answer);
    }),
    "form",
  );
  return authenticator;
}

export function sessionFromTokens(
  user: { id?: string; userId?: string; email: string; fullName: string; securityRoleId: string; firmId: number },
  tokens: TokenAnswer,
): AuthSession {
  return {
    userId: (user.id ?? user.userId)!,
    email: user.email,
    fullName: user.fullName,
    securityRoleId: user.securityRoleId,
    firmId: user.firmId,
    authToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expirationTime: Date.now() + tokens.expires_in * 1000,
  };
}

/** Where a 401 outside the login page ends: session cleared, /login, the spec's toast. */
export async function sessionExpired(request: Request): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSession(request));
  return redirectWithToast(request, "/login", { type: "error", key: "errors:sessionExpired" }, { headers });
}

// Parallel loaders of one navigation share a refresh instead of racing with the same token.
const inflightRefresh = new Map<string, Promise<AuthSession | null>>();

async function refreshed(auth: AuthSession): Promise<AuthSession | null> {
  let pending = inflightRefresh.get(auth.refreshToken);
  if (!pending) {
    pending = apiJson<TokenAnswer>("/oauth/access_token", {
      method: "POST",
      json: { grant_type: "refresh_token", refresh_token: auth.refreshToken },
    })
      .then(({ data }) => sessionFromTokens(auth, data))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status < 500) return null;
        throw error;
      });
    inflightRefresh.set(auth.refreshToken, pending);
    setTimeout(() => inflightRefresh.delete(auth.refreshToken), 30_000).unref();
  }
  return pending;
}

/**
 * The user's role with its field levels (the UserSecurityRole message, decoded), by session and
 * role ("token roleId"), kept for a few seconds: the loaders of one page and the pages of one visit ask once.
 */
export const ownRoleCache = boundedCache<Promise<Record<string, unknown> | null>>({ max: 1000, ttlMs: 3000 });

// A role changed through any process: the API's next answer to each of its sessions says so.
onAccessChange((token) => ownRoleCache.forgetWhere((key) => key.startsWith(`${token} `)));

// The user of a token (with the firm's parts on the browser's host) is asked of the API for every
// request, which checks the session then: nothing of a user is drawn from a kept copy after the
// session ended, in whichever process (decision 089). The loaders of one page ask at the same
// moment and share the call while it is in flight.
const meInFlight = new Map<string, Promise<Me>>();

function fetchMe(token: string, host: string): Promise<Me> {
  const key = `${token} ${host}`;
  let pending = meInFlight.get(key);
  if (!pending) {
    pending = apiJson<Me>(`/auth/me?host=${encodeURIComponent(host)}`, { token })
      .then((r) => r.data)
      .finally(() => meInFlight.delete(key));
    meInFlight.set(key, pending);
  }
  return pending;
}

/**
 * Forgets every kept role, so the next page of each user reads their role again. A console that
 * changed a role calls it; another console process follows on the API's next answer to each
 * session (the access stamp), or when the few seconds are out.
 */
export function forgetSignedInUsers(): void {
  ownRoleCache.clear();
}

/** An API client bound to the signed-in user: a 401 ends the session. */
export interface ApiClient {
  /** What the session's short-lived caches are keyed by (the access token: one per signed-in visit). */
  sessionKey: string;
  json<T>(path: string, req?: Omit<ApiRequest, "token">): Promise<{ data: T; response: Response }>;
  raw(path: string, req?: Omit<ApiRequest, "token">): Promise<Response>;
}

/** The API cannot be reached at all (refused, reset, no answer), as opposed to answering with an error. */
const unreachable = (error: unknown) => error instanceof ApiError && error.status === 503 && error.body.message === "errors:apiUnavailable";

/** A page whose data cannot be loaded because the API is away: 503 with the catalogue's words. */
const apiAwayPage = () => data({ key: "errors:apiUnavailable" }, { status: 503 });

function clientFor(request: Request, auth: AuthSession): ApiClient {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status === 401) throw await sessionExpired(request);
        // The API refusing a resource is the same as the role denying the page.
        if (error.status === 403) throw redirect("/success");
        // An id too long for the API's routes (414) names nothing that exists either.
        if (error.status === 404 || error.status === 414) throw data({ key: "errors:notFound" }, { status: 404 });
        // A page cannot be drawn without the API; a form post keeps its own handling (the typed values stay).
        if (unreachable(error) && request.method === "GET") throw apiAwayPage();
      }
      throw error;
    }
  };
  return {
    sessionKey: auth.authToken,
    json: (path, req = {}) => guard(() => apiJson(path, { ...req, token: auth.authToken })),
    raw: (path, req = {}) =>
      guard(async () => {
        const response = await apiRequest(path, { ...req, token: auth.authToken });
        if (response.status === 401) throw new ApiError(401, {}, path);
        return response;
      }),
  };
}

export interface SignedIn {
  auth: AuthSession;
  me: Me;
  api: ApiClient;
}

/**
 * The signed-in user, or a redirect: to the home route with `from` when signed out, to /login
 * with the expiry toast on a 401, to /success when the role denies the page's access key.
 */
export async function requireUser(request: Request, accessKey: AccessKey | null = null): Promise<SignedIn> {
  let auth = await readSession(request);
  if (!auth) {
    const url = new URL(request.url);
    throw redirect(`/?from=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (auth.expirationTime - Date.now() < REFRESH_BEFORE_MS) {
    const next = await refreshed(auth);
    if (!next) throw await sessionExpired(request);
    auth = next;
    // The console server sends it with whatever this request answers (decision 142).
    sessionRefreshed(await writeSession(request, auth));
  }
  const api = clientFor(request, auth);
  let me: Me;
  try {
    me = await fetchMe(auth.authToken, new URL(request.url).host);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw await sessionExpired(request);
    if (unreachable(error)) throw apiAwayPage();
    throw error;
  }
  if (!canOpen(me.userRole, accessKey)) throw redirect("/success");
  return { auth, me, api };
}
