import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "./utils/mantine-document";
import coreStyles from "@mantine/core/styles.css";
import datesStyles from "@mantine/dates/styles.css";
import { Notifications } from "@mantine/notifications";
import notificationsStyles from "@mantine/notifications/styles.css";
import { type LinksFunction, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches } from "@remix-run/react";
import tableStyles from "mantine-react-table/styles.css";
import { I18nextProvider, useTranslation } from "react-i18next";
import { ApiStatusBanner } from "./components/ApiStatusBanner";
import { Toaster } from "./components/Toaster";
import appStyles from "./styles/app.css";
import { firmBranding } from "./utils/branding.server";
import { firmStoreUpdate, readFirmStore, storedColours } from "./utils/firm-store.server";
import { useFirmI18n } from "./utils/firm-i18n";
import { useNonce } from "./utils/nonce";
import { usePageTitle } from "./utils/page-title";
import { useHydrated } from "./utils/use-hydrated";
import { readSession } from "./utils/session.server";
import { readTheme } from "./utils/theme.server";
import { DEFAULT_THEME_SPEC, THEME_STYLESHEET_PATH, buildTheme } from "./utils/theme";
import { themeSpecOf } from "./utils/theme-spec.server";
import { themeStylesheetHref } from "./utils/theme-stylesheet.server";
import { readToasts } from "./utils/toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: coreStyles },
  { rel: "stylesheet", href: datesStyles },
  { rel: "stylesheet", href: notificationsStyles },
  { rel: "stylesheet", href: tableStyles },
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [theme, { toasts, clear }, auth, firmStore] = await Promise.all([
    readTheme(request),
    readToasts(request),
    readSession(request),
    readFirmStore(request),
  ]);
  // Signed in: the user's own firm; signed out: the firm whose host name this is.
  const branding = await firmBranding(auth ? { firmId: auth.firmId } : { host: new URL(request.url).host });
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  const stored = auth && branding ? await firmStoreUpdate(request, firmStore, branding) : null;
  if (stored) headers.append("Set-Cookie", stored);
  // A host that names no firm, signed out: the colours of the firm this browser last worked for.
  const colours = branding ?? (auth ? null : storedColours(firmStore));
  const themeHref = themeStylesheetHref({ primary: colours?.primary_color, secondary: colours?.secondary_color, accessible: theme.accessibleColors });
  const themeSpec = themeSpecOf(colours, theme.accessibleColors);
  return data({ theme, toasts, branding, themeSpec, themeHref, lang: "en" }, { headers });
}

export type RootLoader = typeof loader;

function useDocumentTitle(): string {
  const { t } = useTranslation();
  const page = usePageTitle();
  return page ? t("documentTitle", { page }) : t("appName");
}

export function Layout({ children }: { children: React.ReactNode }) {
  // The firm's words wrap the whole document, the title included.
  return (
    <I18nextProvider i18n={useFirmI18n()}>
      <Document>{children}</Document>
    </I18nextProvider>
  );
}

function Document({ children }: { children: React.ReactNode }) {
  const loaderData = useMatches().find((m) => m.id === "root")?.data as Awaited<ReturnType<RootLoader>>["data"] | undefined;
  const theme = loaderData?.theme;
  const scheme = theme?.darkMode ? "dark" : "light";
  const title = useDocumentTitle();
  const nonce = useNonce() || undefined;
  // Tells browser tests (and styles) that React has taken the page over.
  const hydrated = useHydrated();
  return (
    <html lang={loaderData?.lang ?? "en"} {...mantineHtmlProps} data-mantine-color-scheme={scheme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <Meta />
        <Links />
        <link rel="stylesheet" href={loaderData?.themeHref ?? THEME_STYLESHEET_PATH} />
        <ColorSchemeScript forceColorScheme={scheme} nonce={nonce} />
      </head>
      <body data-hydrated={hydrated || undefined}>
        <MantineProvider
          theme={buildTheme(loaderData?.themeSpec ?? DEFAULT_THEME_SPEC)}
          forceColorScheme={scheme}
          // The theme's variables come from the cached stylesheet above, not a style element in every page.
          withCssVariables={false}
        >
          <Notifications position="top-center" autoClose={5000} limit={5} className="toast-area" />
          <ApiStatusBanner />
          {children}
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toasts } = useLoaderData<typeof loader>();
  return (
    <>
      <Toaster toasts={toasts} />
      <Outlet />
    </>
  );
}

export { PageError as ErrorBoundary } from "./components/PageError";
