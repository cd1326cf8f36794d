import type { OutboundPurpose } from "../../outbound/guard";

// Where an iManage credential's calls go. iManage Work answers sign-in (/auth/oauth2/token),
// discovery (/api) and the Work API (/work/api/v2/…) on one host, so a switched base URL
// (ECFX_IMANAGE_BASE_URL) simply replaces that host's origin and every path stays as it is.

/** iManage Cloud's production host (the US environment): the default of ECFX_IMANAGE_BASE_URL. */
export const IMANAGE_DEFAULT_BASE_URL = "https://cloudimanage.com";

/** iManage Cloud's hosts by the credential's cloud_environment. */
export const IMANAGE_CLOUD_HOSTS: Readonly<Record<string, string>> = {
  US: "cloudimanage.com",
  EU: "eu.cloudimanage.com",
  UK: "uk.cloudimanage.com",
  AU: "au.cloudimanage.com",
  CA: "ca.cloudimanage.com",
};

const CLOUD_DOMAIN = "cloudimanage.com";

const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/**
 * The host of a cloud environment: a region code ("US", "EU", …) or a firm's own subdomain of
 * cloudimanage.com ("firm.cloudimanage.com"); null for anything else.
 */
export function cloudHost(environment: string): string | null {
  const value = environment.trim();
  const region = IMANAGE_CLOUD_HOSTS[value.toUpperCase()];
  if (region) return region;
  const host = value
    .toLowerCase()
    .replace(/^https:\/\//, "")
    .replace(/\/+$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host) && (host === CLOUD_DOMAIN || host.endsWith(`.${CLOUD_DOMAIN}`)) ? host : null;
}

/** The origin a cloud credential's calls go to: its environment's host, unless the operator switched the base URL. */
export function cloudBase(environment: string, contextBaseUrl: string): URL | null {
  const switched = new URL(contextBaseUrl);
  if (switched.origin !== new URL(IMANAGE_DEFAULT_BASE_URL).origin) return new URL(switched.origin);
  const host = cloudHost(environment);
  return host ? new URL(`https://${host}`) : null;
}

/** The only hosts an iManage credential's calls may reach: the server it names and the operator's base URL. */
export function imanagePurpose(base: URL, contextBaseUrl: string): OutboundPurpose {
  const allowed = new Set([bareHost(base), bareHost(new URL(contextBaseUrl))]);
  return { name: "iManage Work", hostAllowed: (host) => allowed.has(host) };
}
