import type { i18n as I18n } from "i18next";
import { keptResults } from "../common/kept-results";

type Translate = (key: unknown, options?: unknown) => unknown;

/** A text of the options only when each is null, a string, number, boolean or list of strings. */
function optionsText(options: unknown): string | null {
  if (options === undefined || options === null) return "";
  if (typeof options !== "object") return null;
  let text = "";
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") text += `\u0001${name}\u0002${value}`;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) text += `\u0001${name}\u0002${value.join("\u0003")}`;
    else return null;
  }
  return text;
}

/**
 * Keeps what an instance's `t` answered, by key and options, for an instance whose catalogue and
 * language never change (one per language, shared by every render). A page asks for the same few
 * hundred words on every request, and each look-up costs i18next's whole resolution again.
 */
export function keepTranslations(instance: I18n, limit = 20_000): void {
  const translate = instance.t.bind(instance) as unknown as Translate;
  const kept = keptResults<unknown>(limit);
  const keptT: Translate = (key, options) => {
    const text = typeof key === "string" ? optionsText(options) : null;
    if (text === null) return translate(key, options);
    const answer = kept(`${key}\u0000${text}`, () => translate(key, options));
    // Only plain texts are kept: an object (returnObjects) could be changed by its reader.
    return typeof answer === "string" ? answer : translate(key, options);
  };
  (instance as unknown as { t: Translate }).t = keptT;
}
