import { appCatalogue } from "./app-catalogue";
import { signedOutCatalogue } from "./i18n";

/** The whole catalogue: the server draws every page, signed in or not. */
export const resources = { en: { ...signedOutCatalogue, ...appCatalogue } } as const;
