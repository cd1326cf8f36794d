import common from "../../locales/en/common.json";
import dashboard from "../../locales/en/dashboard.json";
import errors from "../../locales/en/errors.json";
import firm from "../../locales/en/firm.json";
import inbox from "../../locales/en/inbox.json";
import mail from "../../locales/en/mail.json";
import resources_ from "../../locales/en/resources.json";
import roles from "../../locales/en/roles.json";
import storage from "../../locales/en/storage.json";
import walls from "../../locales/en/walls.json";
import table from "../../locales/en/table.json";
import transfer from "../../locales/en/transfer.json";
import wizard from "../../locales/en/wizard.json";

// The catalogue is bundled: no request for it, no network, and the same text on server and client.
// One namespace per area: common (shell, pages), errors (the spec's catalogue), resources (entity
// labels), table, wizard, transfer (import and export), mail, roles (the permission matrix).
export const resources = {
  en: { common, errors, mail, resources: resources_, table, wizard, transfer, inbox, storage, walls, firm, dashboard, roles },
} as const;

export const i18nConfig = {
  supportedLngs: ["en"],
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common", "errors", "mail", "resources", "table", "wizard", "transfer", "inbox", "storage", "walls", "firm", "dashboard", "roles"],
  interpolation: { escapeValue: false },
};
