import { ACCESS_STAMP_HEADER } from "../common/access-stamp";
import { boundedCache } from "../common/bounded-cache";

// The access stamp last seen per session token (app/common/access-stamp.ts). Every answer of the
// API passes here; a stamp that moved tells the session's caches to read the user and role again.

// The session seen longest ago goes when it is full.
const seen = boundedCache<string>({ max: 5000 });
const listeners: ((token: string) => void)[] = [];

/** Calls `forget` with a session's token whenever that session's access changes. */
export function onAccessChange(forget: (token: string) => void): void {
  listeners.push(forget);
}

export function noteAccessStamp(token: string, response: Response): void {
  const stamp = response.headers.get(ACCESS_STAMP_HEADER);
  if (!stamp) return;
  const known = seen.get(token);
  if (known === stamp) return;
  seen.set(token, stamp);
  if (known !== undefined) for (const forget of listeners) forget(token);
}
