import fs from "node:fs";
import path from "node:path";
import i18next, { type TFunction } from "i18next";

// The server speaks from the same catalogue as the console (locales/en), so API error
// messages and mail text are the spec's words, kept in one place.
let t: TFunction | undefined;

export function serverT(): TFunction {
  if (t) return t;
  const dir = path.join(process.env.ECFX_ROOT ?? process.cwd(), "locales", "en");
  const resources: Record<string, Record<string, unknown>> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    resources[file.replace(/\.json$/, "")] = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;
  }
  const instance = i18next.createInstance();
  void instance.init({ lng: "en", resources: { en: resources }, initImmediate: false, interpolation: { escapeValue: false } });
  t = instance.t.bind(instance);
  return t;
}

export const message = (key: string, values?: Record<string, unknown>): string => serverT()(key, values ?? {});
