import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { apiRequest } from "../utils/api.server";
import { remixI18n } from "../utils/i18n.server";

// A document through the signed link of a notice mail: no sign-in, the API checks the link,
// its expiry and the recipient's walls. A resource route, so the PDF streams as it is; a link
// that does not work gets a small page of its own with the status that says why.

const PROBLEMS: Record<number, string> = { 403: "errors:publicLinkRefused", 404: "errors:publicLinkInvalid", 410: "errors:publicLinkExpired" };

async function problemPage(request: Request, status: number): Promise<Response> {
  const t = await remixI18n.getFixedT(request);
  const key = PROBLEMS[status] ?? "errors:somethingWrong";
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{t("pages.loadDocument") + " · " + t("appName")}</title>
      </head>
      <body style={{ margin: 0, padding: "48px 16px", background: "#f3f4f6", fontFamily: "Arial, Helvetica, sans-serif", color: "#1f2937" }}>
        <main style={{ maxWidth: 560, margin: "0 auto", padding: "24px", background: "#fff", border: "1px solid #d1d5db", borderRadius: 6 }}>
          <h1 style={{ margin: "0 0 12px", fontSize: 20 }}>{t("pages.loadDocument")}</h1>
          <p role="alert" data-testid="public-document-problem" style={{ margin: "0 0 16px" }}>
            {t(key)}
          </p>
          <a href="/login" style={{ color: "#1d4ed8" }}>
            {t("login.submit")}
          </a>
        </main>
      </body>
    </html>,
  );
  return new Response(`<!DOCTYPE html>${html}`, {
    status: PROBLEMS[status] ? status : 502,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const path = `/api/v1/public/document/${encodeURIComponent(params.token ?? "")}`;
  const response = await apiRequest(path, { accept: "application/pdf" }).catch(() => null);
  if (!response?.ok) return problemPage(request, response?.status === 400 ? 404 : (response?.status ?? 503));
  return new Response(response.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": response.headers.get("content-disposition") ?? "inline",
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
