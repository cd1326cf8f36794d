import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { browserCatalogue, i18nConfig } from "./utils/i18n";
import { rememberDocumentLocation } from "./utils/use-page-views";

async function hydrate() {
  rememberDocumentLocation();
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng: document.documentElement.lang || "en", resources: { en: browserCatalogue } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
