import common from "../../locales/en/common.json";
import errors from "../../locales/en/errors.json";
import mail from "../../locales/en/mail.json";

// The catalogue is bundled: no request for it, no network, and the same text on server and client.
export const resources = { en: { common, errors, mail } } as const;

export const i18nConfig = {
  supportedLngs: ["en"],
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common", "errors", "mail"],
  interpolation: { escapeValue: false },
};
