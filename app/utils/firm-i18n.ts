import { useMatches } from "@remix-run/react";
import { type i18n as I18n, createInstance } from "i18next";
import { useMemo } from "react";
import { initReactI18next, useTranslation } from "react-i18next";
import { type Catalogue, type FirmWords, withOverrides } from "../common/dictionary";
import { i18nConfig } from "./i18n";

// A firm that changed words gets an i18next instance of its own, with its overrides over the
// catalogue the page's instance holds; the page renders inside it on the server and in the browser
// alike, so page titles, the drawer, table headers, labels and toasts all say the firm's words.

const KEPT = 50;
const instances = new Map<string, I18n>();

function instanceFor(words: FirmWords, catalogue: Catalogue): I18n {
  const id = JSON.stringify(words.overrides);
  let instance = instances.get(id);
  if (!instance) {
    instance = createInstance();
    void instance.use(initReactI18next).init({ ...i18nConfig, lng: "en", initImmediate: false, resources: { en: withOverrides(catalogue, words.overrides) } });
    if (instances.size >= KEPT) instances.clear();
    instances.set(id, instance);
  }
  return instance;
}

/** The firm's words, as the dashboard layout's loader hands them down (none before sign-in). */
function useFirmWords(): FirmWords | undefined {
  return useMatches()
    .map((m) => (m.data as { firmWords?: FirmWords } | null | undefined)?.firmWords)
    .find(Boolean);
}

/** The i18next instance the page speaks with: the firm's own, or the catalogue's. */
export function useFirmI18n(): I18n {
  const { i18n } = useTranslation();
  const words = useFirmWords();
  const changed = words && Object.keys(words.overrides).length > 0 ? words : undefined;
  return useMemo(() => (changed ? instanceFor(changed, (i18n.getDataByLanguage("en") ?? {}) as Catalogue) : i18n), [changed, i18n]);
}
