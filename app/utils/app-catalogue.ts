import i18next from "i18next";
import dashboard from "../../locales/en/dashboard.json";
import firm from "../../locales/en/firm.json";
import inbox from "../../locales/en/inbox.json";
import mail from "../../locales/en/mail.json";
import resources from "../../locales/en/resources.json";
import roles from "../../locales/en/roles.json";
import storage from "../../locales/en/storage.json";
import table from "../../locales/en/table.json";
import transfer from "../../locales/en/transfer.json";
import walls from "../../locales/en/walls.json";
import wizard from "../../locales/en/wizard.json";
import { browserCatalogue } from "./i18n";

/** The namespaces only signed-in pages speak. */
export const appCatalogue = { mail, resources, table, wizard, transfer, inbox, storage, walls, firm, dashboard, roles };

/**
 * Gives this browser the signed-in pages' namespaces: before hydration (the layout's module runs
 * before the entry starts i18next) through the catalogue it starts with, after it (a client-side
 * navigation from the sign-in page) straight into the running instance.
 */
export function holdAppCatalogue(): void {
  Object.assign(browserCatalogue, appCatalogue);
  if (!i18next.isInitialized) return;
  for (const [namespace, bundle] of Object.entries(appCatalogue)) {
    if (!i18next.hasResourceBundle("en", namespace)) i18next.addResourceBundle("en", namespace, bundle);
  }
}
