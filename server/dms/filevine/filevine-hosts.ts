import type { OutboundPurpose } from "../../outbound/guard";

// Where FileVine is reached. FileVine answers on three hosts: its identity server
// (identity.filevine.com/connect/token, the personal-access-token exchange), the API gateway
// (api.filevineapp.com/fv-app/v2/…) and the older key/secret API (api.filevine.io/session and
// /core/…). Documents' bytes go to the upload address FileVine hands back (Amazon S3). An operator
// switch (ECFX_FILEVINE_BASE_URL) puts all three under one origin, their paths never overlapping:
//   identity.filevine.com/X → <base>/X, api.filevineapp.com/X → <base>/X, api.filevine.io/X → <base>/X.

export const FILEVINE_DEFAULT_BASE_URL = "https://api.filevineapp.com";
const IDENTITY_URL = "https://identity.filevine.com";
const LEGACY_URL = "https://api.filevine.io";

export interface FileVineHosts {
  purpose: OutboundPurpose;
  /** The identity server's token endpoint. */
  tokenUrl: URL;
  /** The gateway's v2 API: `<apiRoot>/Projects`, `<apiRoot>/Documents`, … */
  gatewayRoot: string;
  /** The key/secret session and its API: `<legacyOrigin>/session`, `<legacyOrigin>/core/…`. */
  legacyOrigin: string;
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

const FILEVINE_DOMAINS = ["filevine.com", "filevineapp.com", "filevine.io"];
/** Amazon S3, where FileVine's upload addresses lead. */
const UPLOAD_DOMAINS = ["amazonaws.com"];

const within = (host: string, domains: string[]) => domains.some((domain) => host === domain || host.endsWith(`.${domain}`));

export function fileVineHosts(baseUrl: string): FileVineHosts {
  const base = (baseUrl || FILEVINE_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const configured = bare(new URL(base).hostname);
  const switched = base !== FILEVINE_DEFAULT_BASE_URL;
  return {
    purpose: { name: "FileVine", hostAllowed: (host) => host === configured || within(host, FILEVINE_DOMAINS) || within(host, UPLOAD_DOMAINS) },
    tokenUrl: new URL(`${switched ? base : IDENTITY_URL}/connect/token`),
    gatewayRoot: `${base}/fv-app/v2`,
    legacyOrigin: switched ? base : LEGACY_URL,
  };
}

/** The firm's FileVine web address: `https://<subdomain>.filevineapp.com`. */
export function webOrigin(subdomain: string): string | null {
  const name = subdomain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\.filevineapp\.com.*$/, "");
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(name) ? `https://${name}.filevineapp.com` : null;
}
