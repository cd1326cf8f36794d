import { RemixI18Next } from "remix-i18next/server";
import { resources } from "./catalogue.server";
import { i18nConfig } from "./i18n";

export const remixI18n = new RemixI18Next({
  detection: { supportedLanguages: i18nConfig.supportedLngs, fallbackLanguage: i18nConfig.fallbackLng },
  i18next: { ...i18nConfig, resources },
});
