import common from "../../locales/en/common.json";
import errors from "../../locales/en/errors.json";

// The catalogue is bundled: no request for it, no network, and the same text on server and client.
// One namespace per area: common (shell, pages), errors (the spec's catalogue), resources (entity
// labels), table, wizard, transfer (import and export), mail, roles (the permission matrix).
// Sign-in and the pages around it speak only common and errors: the signed-in pages' namespaces
// come to the browser with their layout (app-catalogue.ts), not with the sign-in page.

export const signedOutCatalogue = { common, errors };

/** The namespaces this browser holds: the signed-out ones, and the signed-in ones once their layout has loaded. */
export const browserCatalogue: Record<string, object> = { ...signedOutCatalogue };

export const i18nConfig = {
  supportedLngs: ["en"],
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common", "errors", "mail", "resources", "table", "wizard", "transfer", "inbox", "storage", "walls", "firm", "dashboard", "roles"],
  interpolation: { escapeValue: false },
};
