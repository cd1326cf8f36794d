import { AsyncLocalStorage } from "node:async_hooks";

// A request that refreshes the user's tokens rotates the refresh token at the API: the browser
// must get the new session cookie with whatever the request answers (a file, a redirect a route
// throws, an error page), or its next request presents a token already used, which the API takes
// for a stolen one once the leeway is past and ends every session of the user (decision 142).
// The console server runs each request inside `withRefreshedSession` (through the build's entry
// module, so it shares this instance) and adds the cookie where the answer sets no session cookie.

const refreshed = new AsyncLocalStorage<{ cookie?: string }>();

/** Answers a request, and says which session cookie a refresh during it wrote (none when none did). */
export async function withRefreshedSession(answer: () => Promise<Response>): Promise<{ response: Response; sessionCookie?: string }> {
  const store: { cookie?: string } = {};
  const response = await refreshed.run(store, answer);
  return { response, sessionCookie: store.cookie };
}

/** Called with the Set-Cookie of a refreshed session; outside the console server (a test), nothing is kept. */
export function sessionRefreshed(setCookie: string): void {
  const store = refreshed.getStore();
  if (store) store.cookie = setCookie;
}
