import type { VendorContext } from "../vendor-target";
import { hostsPurpose } from "../vendor-http";
import type { OutboundPurpose } from "../../outbound/guard";

// Where SharePoint Online's calls go. Microsoft's hosts unless the operator switched
// ECFX_SHAREPOINT_GRAPH_BASE_URL: then Graph (https://graph.microsoft.com/v1.0/…) is reached as
// {base}/v1.0/…, sign-in (https://login.microsoftonline.com/{tenant}/…) as {auth or base
// origin}/{tenant}/…, and upload sessions at whatever URL Graph hands back, which a switched
// base names under its own origin.

export const GRAPH_DEFAULT_BASE_URL = "https://graph.microsoft.com";
export const LOGIN_DEFAULT_BASE_URL = "https://login.microsoftonline.com";
const GRAPH_VERSION = "v1.0";

export interface GraphEndpoints {
  /** Graph's base with the version: "https://graph.microsoft.com/v1.0". */
  graph: string;
  /** The sign-in base MSAL's requests are sent to. */
  login: string;
  purpose: OutboundPurpose;
}

const withoutSlash = (url: string) => url.replace(/\/+$/, "");

/** The endpoints of one credential; `siteUrl` (its base_url) adds the tenant's SharePoint host, where upload sessions live. */
export function graphEndpoints(ctx: Pick<VendorContext, "baseUrl" | "authUrl">, siteUrl: string): GraphEndpoints {
  const base = withoutSlash(ctx.baseUrl || GRAPH_DEFAULT_BASE_URL);
  const switched = new URL(base).origin !== new URL(GRAPH_DEFAULT_BASE_URL).origin;
  const login = withoutSlash(ctx.authUrl ?? (switched ? new URL(base).origin : LOGIN_DEFAULT_BASE_URL));
  const hosts = [new URL(base).hostname, new URL(login).hostname, "graph.microsoft.com", "login.microsoftonline.com", new URL(siteUrl).hostname];
  return { graph: `${base}/${GRAPH_VERSION}`, login, purpose: hostsPurpose("SharePoint Online", hosts) };
}

/** MSAL always speaks of login.microsoftonline.com; the request goes to the credential's sign-in base. */
export function loginUrl(endpoints: GraphEndpoints, msalUrl: string): URL {
  const url = new URL(msalUrl);
  return new URL(`${endpoints.login}${url.pathname}${url.search}`);
}
