import type { OutboundPurpose } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";

// Where a NetDocuments repository is reached. NetDocuments runs one isolated service per region,
// each with its own API host (token endpoint included) and its own web host for opening
// documents; a repository lives in exactly one. When the operator switches the base URL
// (ECFX_NETDOCUMENTS_BASE_URL: a test stand-in, a proxy), every call goes under that origin with
// the same paths: /v1/OAuth, /v1/Cabinet/…, /v1/Folder…, /v1/Document…, and document links
// become <origin>/neWeb2/goID.aspx?id=<document id>.

/** The US service's API host: what ctx.baseUrl is unless the operator switched it. */
export const NETDOCUMENTS_DEFAULT_BASE_URL = "https://api.vault.netvoyage.com";

const REGION_API_HOSTS: Record<string, string> = {
  US: "api.vault.netvoyage.com",
  EU: "api.eu.netdocuments.com",
  AU: "api.au.netdocuments.com",
  DE: "api.de.netdocuments.com",
  UK: "api.uk.netdocuments.com",
};
/** Other spellings firms use for the same services. */
const REGION_ALIASES: Record<string, string> = { VAULT: "US", USA: "US", GB: "UK" };

/** The region names a credential's cloud_environment or region may hold (empty means US). */
export const NETDOCUMENTS_REGIONS = Object.keys(REGION_API_HOSTS);

export interface NetDocumentsEndpoints {
  /** API base: the region's API host, or the operator's base URL. */
  api: URL;
  /** Where people open documents: the region's web host, or the operator's origin. */
  web: URL;
  purpose: OutboundPurpose;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase();

function regionApiHost(kind: string, region: string): string {
  const key = region.trim().toUpperCase() || "US";
  const host = REGION_API_HOSTS[REGION_ALIASES[key] ?? key];
  if (!host) throw new DmsTargetError(kind, `NetDocuments has no region "${region}": use one of ${NETDOCUMENTS_REGIONS.join(", ")}`, false);
  return host;
}

/** The hosts one credential's calls go to; the purpose allows those and nothing else. */
export function netDocumentsEndpoints(kind: string, region: string, baseUrl: string): NetDocumentsEndpoints {
  let operator: URL;
  try {
    operator = new URL(baseUrl);
  } catch {
    throw new DmsTargetError(kind, `The NetDocuments base URL "${baseUrl}" is not a URL`, false);
  }
  const switched = operator.origin !== new URL(NETDOCUMENTS_DEFAULT_BASE_URL).origin;
  const regionHost = regionApiHost(kind, region);
  const api = switched ? operator : new URL(`https://${regionHost}`);
  const web = switched ? new URL(operator.origin) : new URL(`https://${regionHost.replace(/^api\./, "")}`);
  const allowed = new Set([bare(api.hostname), bare(operator.hostname)]);
  return { api, web, purpose: { name: "NetDocuments", hostAllowed: (host) => allowed.has(bare(host)) } };
}

/** The URL of an API path under the base (the base's own path kept, one slash between). */
export function apiUrl(endpoints: NetDocumentsEndpoints, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(`${endpoints.api.pathname.replace(/\/$/, "")}/${path.replace(/^\/+/, "")}`, endpoints.api.origin);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}

/**
 * NetDocuments' consent page on the region's web host (/neWeb2/OAuth.aspx, the authorizationUrl
 * of NetDocuments' connector definition), sending the browser back to `redirectUri` with a code.
 */
export function consentUrl(endpoints: NetDocumentsEndpoints, clientId: string, state: string, redirectUri: string): string {
  const url = new URL("/neWeb2/OAuth.aspx", endpoints.web);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("scope", "full");
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url.toString();
}

/** The link that opens a document in NetDocuments' web client. */
export function documentLink(endpoints: NetDocumentsEndpoints, documentId: string): string {
  const url = new URL("/neWeb2/goID.aspx", endpoints.web);
  url.searchParams.set("id", documentId);
  return url.toString();
}
