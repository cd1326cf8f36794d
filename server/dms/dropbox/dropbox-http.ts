import { readBoundedBody } from "../../lib/bounded-body";
import { Response, type RequestInit } from "undici";
import { OutboundRefusedError } from "../../outbound/guard";
import type { VendorContext } from "../vendor-target";
import { DmsTargetError } from "../dms-target";
import { DROPBOX_KIND } from "./dropbox-errors";
import type { DropboxHosts } from "./dropbox-hosts";

// The one way this client reaches Dropbox, the SDK included: through the outbound guard, with
// the call's time-out, and reading at most MAX_ANSWER_BYTES of any answer. The answer is handed
// back fully read, so nothing later can be kept waiting on a slow body.

/** Longest answer read: metadata, a page of a folder listing, an error. Uploads send; they never download. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export type DropboxFetch = (url: string, init?: RequestInit) => Promise<Response>;

async function boundedBody(response: Response): Promise<Buffer> {
  return readBoundedBody(
    response,
    MAX_ANSWER_BYTES,
    () => new DmsTargetError(DROPBOX_KIND, `Dropbox sent an answer larger than ${MAX_ANSWER_BYTES} bytes`, false),
  );
}

const NO_BODY = new Set([101, 204, 205, 304]);

export function guardedFetch(ctx: VendorContext, hosts: DropboxHosts): DropboxFetch {
  return async (url, init = {}) => {
    const target = hosts.map(url);
    try {
      const response = await ctx.guard.fetch(target, hosts.purpose, { ...init, signal: AbortSignal.timeout(ctx.timeoutMs) });
      const body = await boundedBody(response);
      return new Response(NO_BODY.has(response.status) ? null : body, { status: response.status, headers: response.headers });
    } catch (error) {
      if (error instanceof DmsTargetError) throw error;
      if (error instanceof OutboundRefusedError) throw new DmsTargetError(DROPBOX_KIND, error.message, false, { cause: error });
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new DmsTargetError(DROPBOX_KIND, `Dropbox did not answer within ${Math.ceil(ctx.timeoutMs / 1000)} s (${target.host})`, true, { cause: error });
      }
      throw new DmsTargetError(DROPBOX_KIND, `Dropbox could not be reached (${target.host})`, true, { cause: error });
    }
  };
}
