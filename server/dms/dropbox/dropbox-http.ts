import { type TokenSource, type VendorFetch, vendorHttp } from "../vendor-http";
import type { VendorContext } from "../vendor-target";
import { DROPBOX_KIND, dropboxReason } from "./dropbox-errors";
import type { DropboxHosts } from "./dropbox-hosts";

// The one way this client reaches Dropbox, the SDK included: the vendors' one HTTP layer
// (vendor-http.ts: the outbound guard, the call's time-out, at most MAX_ANSWER_BYTES of any
// answer), handed to the SDK as its fetch. The answer comes back fully read, so nothing later
// can be kept waiting on a slow body.

/** Longest answer read: metadata, a page of a folder listing, an error. Uploads send; they never download. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** The vendors' HTTP layer as Dropbox's calls use it. */
export const dropboxHttp = vendorHttp({
  kind: DROPBOX_KIND,
  vendor: "Dropbox",
  maxAnswerBytes: MAX_ANSWER_BYTES,
  reasonOf: (body) => dropboxReason(body) || undefined,
});

export type DropboxFetch = VendorFetch;

/**
 * The SDK's fetch: its fixed Dropbox URLs moved to the credential's hosts, then through the layer;
 * with `tokens`, API calls carry their token and a refused one is renewed once (vendor-http.ts).
 */
export function guardedFetch(ctx: VendorContext, hosts: DropboxHosts, tokens?: TokenSource<string>): DropboxFetch {
  return dropboxHttp.fetchFor(ctx, hosts.purpose, (url) => hosts.map(url), tokens);
}
