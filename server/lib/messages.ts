import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import i18next, { type TFunction } from "i18next";
import { type Catalogue, type FirmOverrides, withOverrides } from "../../app/common/dictionary";

// The server speaks from the same catalogue as the console (locales/en), so API error
// messages and mail text are the spec's words, kept in one place.
let catalogue: Catalogue | undefined;
let t: TFunction | undefined;

/** Every namespace of locales/en, as the files say it. */
export function defaultCatalogue(): Catalogue {
  if (catalogue) return catalogue;
  const dir = path.join(process.env.ECFX_ROOT ?? process.cwd(), "locales", "en");
  const resources: Record<string, Record<string, unknown>> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    resources[file.replace(/\.json$/, "")] = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;
  }
  catalogue = resources;
  return catalogue;
}

function translator(resources: Catalogue): TFunction {
  const instance = i18next.createInstance();
  void instance.init({ lng: "en", resources: { en: resources }, initImmediate: false, interpolation: { escapeValue: false } });
  return instance.t.bind(instance);
}

export function serverT(): TFunction {
  t ??= translator(defaultCatalogue());
  return t;
}

/** The catalogue in a firm's words: its overrides over the defaults. */
export function firmTranslator(overrides: FirmOverrides): TFunction {
  return Object.keys(overrides).length === 0 ? serverT() : translator(withOverrides(defaultCatalogue(), overrides));
}

// Whose words this request or job speaks: set once the firm is known (the API's caller, a job's
// firm), read by every message() below it, so no call site has to pass the firm along.
const spoken = new AsyncLocalStorage<{ t?: TFunction }>();

/** Runs `next` in a scope whose words `speakWith` may set later (an API request before its caller is known). */
export function inWordsScope(next: () => void): void {
  spoken.run({}, next);
}

/** From now on the current scope speaks with `words`. */
export function speakWith(words: TFunction): void {
  const scope = spoken.getStore();
  if (scope) scope.t = words;
}

/** Runs `work` speaking with `words` (a job or a mail for one firm). */
export function withWords<T>(words: TFunction, work: () => T): T {
  return spoken.run({ t: words }, work);
}

export const message = (key: string, values?: Record<string, unknown>): string => (spoken.getStore()?.t ?? serverT())(key, values ?? {});
