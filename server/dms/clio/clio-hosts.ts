import type { OutboundPurpose } from "../../outbound/guard";

// Where a Clio credential's calls go. Clio Manage keeps each account in one region, and the region's
// host answers both OAuth (/oauth/authorize, /oauth/token) and the API (/api/v4/…). An operator
// switch (ECFX_CLIO_BASE_URL) replaces that host for every call, sign-in included.

export const CLIO_KIND = "clio_credential";

/** The US host: the default of ECFX_CLIO_BASE_URL, which stands for "the credential's region". */
export const CLIO_DEFAULT_BASE_URL = "https://app.clio.com";

export const CLIO_REGION_HOSTS: Readonly<Record<string, string>> = {
  us: "app.clio.com",
  ca: "ca.app.clio.com",
  eu: "eu.app.clio.com",
  au: "au.app.clio.com",
};

/** The origin of the credential's calls: its region's host, unless the operator switched the base URL. */
export function clioBase(region: string, contextBaseUrl: string): URL {
  const switched = new URL(contextBaseUrl);
  if (switched.origin !== new URL(CLIO_DEFAULT_BASE_URL).origin) return new URL(switched.origin);
  return new URL(`https://${CLIO_REGION_HOSTS[region.trim().toLowerCase()] ?? CLIO_REGION_HOSTS.us}`);
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Only the credential's own Clio host, plus the host Clio hands out for the bytes of an upload (put_url). */
export function clioPurpose(base: URL): OutboundPurpose {
  const host = bare(base.hostname);
  return { name: "Clio", hostAllowed: (candidate) => bare(candidate) === host || isUploadHost(candidate) };
}

/**
 * Clio's put_url points at its document store (Amazon S3 under Clio's account); the bytes go there.
 * Only https S3 hosts are taken; the local server hands out its own origin.
 */
function isUploadHost(host: string): boolean {
  const name = bare(host);
  return name.endsWith(".amazonaws.com");
}

/** Where a person opens a Clio document in Clio Manage. */
export const clioDocumentLink = (base: URL, id: number | string): string => `${base.origin}/nc/#/documents/${id}/details`;
