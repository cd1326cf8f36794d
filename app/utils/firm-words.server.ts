import { boundedCache } from "../common/bounded-cache";
import type { FirmOverrides, FirmWords } from "../common/dictionary";
import type { ApiClient, Me } from "./auth.server";
import { i18nConfig } from "./i18n";

// The console keeps each firm's words per dictionary version: /auth/me, which every page of the
// dashboard asks anyway, carries the version, and the words are asked for only when it moved.

const NO_WORDS: FirmWords = { version: 0, overrides: {} };
const kept = boundedCache<Promise<FirmWords>>({ max: 500 });
const CONSOLE_NAMESPACES = new Set<string>(i18nConfig.ns);

/** Only what the console's bundle shows: server-only namespaces stay on the server. */
function consoleOnly(words: FirmWords): FirmWords {
  const overrides: FirmOverrides = Object.fromEntries(Object.entries(words.overrides).filter(([ns]) => CONSOLE_NAMESPACES.has(ns)));
  return { version: words.version, overrides };
}

/** The signed-in user's firm's words, for every page of the dashboard. */
export async function firmWordsOf(me: Me, api: ApiClient): Promise<FirmWords> {
  if (!me.dictionaryVersion) return NO_WORDS;
  const hit = kept.get(String(me.firmId));
  if (hit && (await hit).version === me.dictionaryVersion) return hit;
  const words = api.json<FirmWords>("/api/v1/dictionary/words").then((r) => consoleOnly(r.data));
  kept.set(String(me.firmId), words);
  return words;
}
