import type { OutboundPurpose } from "../../outbound/guard";

// Dropbox answers on three hosts: api.dropboxapi.com (RPC calls), content.dropboxapi.com
// (uploads and downloads) and api.dropbox.com (the OAuth token). The SDK always builds URLs for
// them; every URL is mapped here before the guard sees it. With the production base URL the
// URL stays as it is. With another base (ECFX_DROPBOX_BASE_URL: a test server, a proxy) all three
// hosts are reached under that base's origin with the same paths, which never overlap:
//   https://api.dropboxapi.com/2/<route>      → <base>/2/<route>
//   https://content.dropboxapi.com/2/<route>  → <base>/2/<route>
//   https://api.dropbox.com/oauth2/token      → <base>/oauth2/token (or <authUrl>/oauth2/token)

export const DROPBOX_DEFAULT_BASE_URL = "https://api.dropboxapi.com";
const DROPBOX_HOSTS = ["api.dropboxapi.com", "content.dropboxapi.com", "api.dropbox.com"];
const TOKEN_PATH = "/oauth2/token";

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
const withoutSlash = (url: string) => url.replace(/\/+$/, "");

export interface DropboxHosts {
  purpose: OutboundPurpose;
  /** Where a URL the SDK built is really sent. */
  map(url: string): URL;
  tokenUrl: URL;
}

export function dropboxHosts(baseUrl: string, authUrl?: string): DropboxHosts {
  const base = withoutSlash(baseUrl || DROPBOX_DEFAULT_BASE_URL);
  const switched = base !== DROPBOX_DEFAULT_BASE_URL;
  const allowed = new Set([...DROPBOX_HOSTS, hostOf(base), ...(authUrl ? [hostOf(authUrl)] : [])]);
  const tokenBase = authUrl ? withoutSlash(authUrl) : switched ? base : "https://api.dropbox.com";
  return {
    purpose: { name: "Dropbox", hostAllowed: (host) => allowed.has(host) },
    map(url) {
      const parsed = new URL(url);
      if (!switched || !DROPBOX_HOSTS.includes(parsed.hostname)) return parsed;
      return new URL(`${base}${parsed.pathname}${parsed.search}`);
    },
    tokenUrl: new URL(`${tokenBase}${TOKEN_PATH}`),
  };
}
