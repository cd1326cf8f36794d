import type { LoaderFunctionArgs } from "@remix-run/node";
import { themeInputsOf, themeStylesheet } from "../utils/theme-stylesheet.server";

/**
 * A firm theme's CSS variables (see theme-stylesheet.server.ts). The address names the colours and
 * the digest of the text, so the browser keeps it for good; an address whose digest is not this
 * build's (a page drawn before an upgrade) gets the current text, not kept.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const { css, version } = themeStylesheet(themeInputsOf(params));
  const cache = params.get("v") === version ? "public, max-age=31536000, immutable" : "no-cache";
  return new Response(css, { headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": cache } });
}
