import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { type i18n as I18n, createInstance } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { resources } from "./utils/catalogue.server";
import { i18nConfig } from "./utils/i18n";
import { remixI18n } from "./utils/i18n.server";
import { keepTranslations } from "./utils/kept-translations.server";
import { documentOnlyStore } from "./utils/load-context";
import { DocumentOnlyContext } from "./utils/document-only";
import { NonceContext } from "./utils/nonce";
import { wholeOutput } from "./utils/whole-output.server";
import { logger } from "./common/logger";
import { redactUrl } from "./common/redact";

// A page waits for data it asks for while drawing as long as the API may take to answer (its
// calls time out after 15 s and are tried once more); past this, the render gives up.
const ABORT_DELAY = 30_000;

// One initialised instance per language, shared by every request: an instance holds only the
// catalogue and its language (never changed here), and building one costs milliseconds a page.
const instances = new Map<string, Promise<I18n>>();
function i18nFor(lng: string): Promise<I18n> {
  let ready = instances.get(lng);
  if (!ready) {
    const instance = createInstance();
    ready = instance
      .use(initReactI18next)
      .init({ ...i18nConfig, lng, resources })
      .then(() => {
        keepTranslations(instance);
        return instance;
      });
    instances.set(lng, ready);
  }
  return ready;
}
export const streamTimeout = ABORT_DELAY;
// The console server answers every request through it (decision 142).
export { withRefreshedSession } from "./utils/refreshed-session.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The console server puts a fresh nonce in the load context and names it in the CSP header.
  const nonce = typeof loadContext?.cspNonce === "string" ? loadContext.cspNonce : "";
  const i18n = await i18nFor(await remixI18n.getLocale(request));

  // Every reader gets the whole document at once: nothing tells a browser with scripts off from
  // one with them on, and a part sent late is put in place by a script. Data a page asks for
  // while it draws (Await) is in it: React writes a part that is ready in place, whatever its
  // size, when the chunk size is unbounded. The document is sent as one piece (wholeOutput).
  return new Promise<Response>((resolve, reject) => {
    let sent = false;
    let shellFailed = false;
    // An error of a part drawn after the shell (Await) is known only once the shell has not failed:
    // a failed shell is logged by Remix, which draws the error page instead.
    const partErrors: unknown[] = [];
    let abortRender = () => {};
    const giveUp = setTimeout(() => abortRender(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <DocumentOnlyContext.Provider value={documentOnlyStore(loadContext)}>
          <I18nextProvider i18n={i18n}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce || undefined} />
          </I18nextProvider>
        </DocumentOnlyContext.Provider>
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          // React reports all ready after a failed shell too; that answer is Remix's error page.
          if (shellFailed) return;
          sent = true;
          clearTimeout(giveUp);
          for (const error of partErrors) logger("console").error({ err: error }, "page part failed");
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("X-Content-Type-Options", "nosniff");
          responseHeaders.set("Referrer-Policy", "same-origin");
          responseHeaders.set("X-Frame-Options", "SAMEORIGIN");
          wholeOutput(pipe).then((body) => resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode })), reject);
        },
        onShellError(error: unknown) {
          shellFailed = true;
          clearTimeout(giveUp);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (sent) logger("console").error({ err: error }, "page part failed");
          else partErrors.push(error);
        },
      },
    );
    abortRender = abort;
  });
}

/** A loader's or action's error, as one structured line of the console's log (a request the browser gave up on is none). */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (!request.signal.aborted) logger("console").error({ err: error, method: request.method, url: redactUrl(new URL(request.url).pathname) }, "route failed");
}
