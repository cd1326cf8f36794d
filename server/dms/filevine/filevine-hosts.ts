import { FILEVINE_REGIONS, type FileVineRegion } from "../../../app/common/filevine";
import type { OutboundPurpose } from "../../outbound/guard";

// Where FileVine is reached. Each region (app/common/filevine.ts) has its identity server
// (<identity>/connect/token, the personal-access-token exchange) and its API gateway
// (<api>/fv-app/v2/…); the US has also the older key/secret API (api.filevine.io/session and
// /core/…). Documents' bytes go to the upload address FileVine hands back (Amazon S3). The guard
// lets FileVine calls reach exactly the region's hosts and S3, nothing else of FileVine's or
// anyone's. An operator switch (ECFX_FILEVINE_BASE_URL) puts all of them under one origin, their
// paths never overlapping: <identity>/X, <api>/X and api.filevine.io/X → <base>/X.

export const FILEVINE_DEFAULT_BASE_URL = `https://${FILEVINE_REGIONS.us.api}`;

export interface FileVineHosts {
  region: FileVineRegion;
  purpose: OutboundPurpose;
  /** The identity server's token endpoint. */
  tokenUrl: URL;
  /** The gateway's v2 API: `<gatewayRoot>/Projects`, `<gatewayRoot>/Documents`, … */
  gatewayRoot: string;
  /** The key/secret session and its API (`<legacyOrigin>/session`, `<legacyOrigin>/core/…`); null where the region has none. */
  legacyOrigin: string | null;
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Amazon S3's hosts, where FileVine's upload addresses lead: `<bucket>.s3.<region>.amazonaws.com`, `s3.amazonaws.com`, … */
const S3_HOST = /^(?:[a-z0-9.-]+\.)?s3(?:[.-][a-z0-9-]+)*\.amazonaws\.com$/;

export function fileVineHosts(baseUrl: string, region: FileVineRegion = "us"): FileVineHosts {
  const hosts = FILEVINE_REGIONS[region];
  const base = (baseUrl || FILEVINE_DEFAULT_BASE_URL).replace(/\/+$/, "");
  // The operator's base replaces the US default only: a Canadian credential is reached at its own hosts unless switched.
  const switched = base !== FILEVINE_DEFAULT_BASE_URL;
  const allowed = new Set(switched ? [bare(new URL(base).hostname)] : [hosts.identity, hosts.api, ...(hosts.legacyApi ? [hosts.legacyApi] : [])]);
  return {
    region,
    purpose: { name: "FileVine", hostAllowed: (host) => allowed.has(bare(host)) || S3_HOST.test(bare(host)) },
    tokenUrl: new URL(`${switched ? base : `https://${hosts.identity}`}/connect/token`),
    gatewayRoot: `${switched ? base : `https://${hosts.api}`}/fv-app/v2`,
    legacyOrigin: switched ? base : hosts.legacyApi && `https://${hosts.legacyApi}`,
  };
}
