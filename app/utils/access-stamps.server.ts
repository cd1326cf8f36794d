import { ACCESS_STAMP_HEADER } from "../common/access-stamp";

// The access stamp last seen per session token (app/common/access-stamp.ts). Every answer of the
// API passes here; a stamp that moved tells the session's caches to read the user and role again.

const MAX_SESSIONS = 5000;
const seen = new Map<string, string>();
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
  // Oldest first: the session seen longest ago goes when the map is full.
  seen.delete(token);
  if (seen.size >= MAX_SESSIONS) seen.delete(seen.keys().next().value!);
  seen.set(token, stamp);
  if (known !== undefined) for (const forget of listeners) forget(token);
}
