import type { IncomingHttpHeaders } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request that changes something came from another site. Browsers say where a request
 * comes from (Sec-Fetch-Site, else Origin); a page on another site, even a sibling sub-domain such
 * as another firm's host, must not be able to post to the console with the user's cookie.
 * Requests without either header are not from a browser page and carry no ambient cookie risk.
 */
export function isCrossSiteWrite(method: string, headers: IncomingHttpHeaders, ownHosts: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const fetchSite = headers["sec-fetch-site"];
  if (typeof fetchSite === "string") return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = headers.origin;
  if (typeof origin !== "string") return false;
  try {
    return !ownHosts.has(new URL(origin).host.toLowerCase());
  } catch {
    // "null" (a sandboxed frame, a privacy-sensitive redirect) or garbage: not our page.
    return true;
  }
}
