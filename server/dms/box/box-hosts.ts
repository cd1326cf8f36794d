import type { OutboundPurpose } from "../../outbound/guard";

// Where Box is reached. Box has three hosts: api.box.com (the API and the token grant),
// upload.box.com/api (uploads) and account.box.com/api/oauth2 (interactive sign-in, unused with
// the client-credential grant). An operator switch (ECFX_BOX_BASE_URL) puts all three under one
// base: api.box.com/X → <base>/X, upload.box.com/api/X → <base>/api/X,
// account.box.com/api/oauth2/X → <base>/api/oauth2/X.

export const BOX_DEFAULT_BASE_URL = "https://api.box.com";

export interface BoxUrls {
  baseUrl: string;
  uploadUrl: string;
  oauth2Url: string;
}

export function boxUrls(baseUrl: string): BoxUrls {
  const base = baseUrl.replace(/\/+$/, "");
  if (base === BOX_DEFAULT_BASE_URL) return { baseUrl: base, uploadUrl: "https://upload.box.com/api", oauth2Url: "https://account.box.com/api/oauth2" };
  return { baseUrl: base, uploadUrl: `${base}/api`, oauth2Url: `${base}/api/oauth2` };
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Box's hosts (box.com and its subdomains: api, upload, account, an upload session's host) and the host of the configured base. */
export function boxPurpose(baseUrl: string): OutboundPurpose {
  const configured = bare(new URL(baseUrl).hostname);
  return { name: "Box", hostAllowed: (host) => host === configured || host === "box.com" || host.endsWith(".box.com") };
}
