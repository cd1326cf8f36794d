import { Blob } from "node:buffer";
import { Readable } from "node:stream";
import { BoxCcgAuth, BoxClient, CcgConfig } from "box-node-sdk";
import type { AccessToken } from "box-node-sdk/lib/schemas/accessToken";
import type { TokenStorage } from "box-node-sdk/lib/box/tokenStorage";
import { BaseUrls } from "box-node-sdk/lib/networking/baseUrls";
import type { FetchOptionsInput, MultipartItem } from "box-node-sdk/lib/networking/fetchOptions";
import type { FetchResponse } from "box-node-sdk/lib/networking/fetchResponse";
import { NetworkSession } from "box-node-sdk/lib/networking/network";
import type { NetworkClient } from "box-node-sdk/lib/networking/networkClient";
import type { Authentication } from "box-node-sdk/lib/networking/auth";
import { FormData } from "undici";
import type { OutboundPurpose } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import type { StoredToken, VendorContext } from "../vendor-target";
import { type TokenSource, vendorHttp } from "../vendor-http";
import { BOX_KIND, BoxCallError, boxReason, retryAfterMs } from "./box-errors";
import { boxPurpose, boxUrls } from "./box-hosts";

// The Box SDK signed in with the client-credential grant (CCG), its every HTTP call made through
// the vendors' one HTTP layer (vendor-http.ts): the SDK's own network client (with its retries
// and sleeps) is replaced by one that sends through the layer (the outbound guard, a time-out,
// bounded answers) and turns refusals into BoxCallError. Retries are the storage step's business,
// not the SDK's.

/** Largest JSON answer read from Box: a folder page of 1000 items with metadata stays well below. */
export const MAX_BOX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The vendors' HTTP layer as Box's calls use it; refusals are read by the network client below. */
export const boxHttp = vendorHttp({ kind: BOX_KIND, vendor: "Box", maxAnswerBytes: MAX_BOX_ANSWER_BYTES, reasonOf: () => undefined });
/** A token is renewed this long before Box says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface BoxSettings {
  client_key: string;
  client_secret: string;
  box_subject_type: "enterprise" | "user";
  box_subject_id: string;
  /** Milliseconds to wait after creating a folder, before uploading into it; 0 when unset. */
  folder_creation_sync_delay: number;
}

/** Who the token signs in as; a token kept for another subject is not used. */
const subjectOf = (settings: BoxSettings) => `${settings.box_subject_type}:${settings.box_subject_id}`;

/** The SDK's token storage over the credential's TokenStore: a token due within the margin counts as none, so the SDK asks for a new one. */
export function boxTokenStorage(settings: BoxSettings, ctx: VendorContext): TokenStorage {
  return {
    async get() {
      const kept = await ctx.tokens.read();
      if (!kept || kept.extra?.subject !== subjectOf(settings) || kept.expiresAt - TOKEN_MARGIN_MS <= ctx.now()) return undefined;
      return { accessToken: kept.accessToken, tokenType: "bearer", expiresIn: Math.floor((kept.expiresAt - ctx.now()) / 1000) } satisfies AccessToken;
    },
    async store(token: AccessToken) {
      if (!token.accessToken) throw new DmsTargetError(BOX_KIND, "Token generation failed: Box answered without a token", false);
      const stored: StoredToken = {
        accessToken: token.accessToken,
        expiresAt: ctx.now() + (token.expiresIn ?? 0) * 1000,
        extra: { subject: subjectOf(settings) },
      };
      await ctx.tokens.write(stored);
      return undefined;
    },
    async clear() {
      await ctx.tokens.clear();
      return undefined;
    },
  };
}

async function bytesOf(stream: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The request body and its content type, built from the SDK's description of it. */
async function bodyOf(options: FetchOptionsInput): Promise<{ body?: string | Buffer | FormData; contentType?: string }> {
  if (options.multipartData) return { body: await formOf(options.multipartData) };
  const contentType = options.contentType ?? "application/json";
  if (contentType === "application/octet-stream") return { body: options.fileStream ? await bytesOf(options.fileStream) : Buffer.alloc(0), contentType };
  if (options.data === undefined) return {};
  if (contentType === "application/x-www-form-urlencoded") {
    const fields = Object.entries(options.data as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null);
    return { body: new URLSearchParams(fields.map(([key, value]) => [key, String(value)])).toString(), contentType };
  }
  return { body: JSON.stringify(options.data), contentType };
}

/** Box reads `attributes` before `file`: the parts keep the SDK's order. */
async function formOf(items: readonly MultipartItem[]): Promise<FormData> {
  const form = new FormData();
  for (const item of items) {
    if (item.fileStream) {
      const blob = new Blob([await bytesOf(item.fileStream)], { type: item.contentType ?? "application/octet-stream" });
      form.append(item.partName, blob, item.fileName ?? "file");
    } else {
      form.append(item.partName, JSON.stringify(item.data));
    }
  }
  return form;
}

function parsed(bytes: Buffer): unknown {
  const text = bytes.toString("utf8");
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The SDK's network client, every call through the guard. */
export class GuardedBoxNetworkClient implements NetworkClient {
  private readonly purpose: OutboundPurpose;
  /** The Retry-After of the last 202 each URL answered: the SDK passes a 202 on without its headers. */
  private readonly accepted = new Map<string, number | undefined>();

  /** How long the last 202 from `url` asked to wait (milliseconds), if it answered 202. */
  retryAfterAccepted(url: string): number | undefined {
    return this.accepted.get(url);
  }

  /** The SDK's authentication as a token source (its Authorization header), one per authentication so renewals are shared. */
  private readonly sources = new WeakMap<Authentication, TokenSource<string>>();

  private tokensOf(auth: Authentication, session: NetworkSession | undefined): TokenSource<string> {
    let source = this.sources.get(auth);
    if (!source) {
      source = {
        current: () => auth.retrieveAuthorizationHeader(session),
        renew: async () => {
          await auth.refreshToken(session);
          return auth.retrieveAuthorizationHeader(session);
        },
      };
      this.sources.set(auth, source);
    }
    return source;
  }

  constructor(private readonly ctx: VendorContext) {
    this.purpose = boxPurpose(ctx.baseUrl);
  }

  async fetch(options: FetchOptionsInput): Promise<FetchResponse> {
    // Read once: the SDK's streams are spent after the first send, and a 401 sends again.
    const { body, contentType } = await bodyOf(options);
    const url = new URL(options.url);
    for (const [key, value] of Object.entries(options.params ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const headers: Record<string, string> = { ...options.headers, ...options.networkSession?.additionalHeaders };
    if (contentType && options.method !== "GET") headers["content-type"] = contentType;
    const send = (authorization?: string) =>
      boxHttp.send(this.ctx, this.purpose, url, {
        method: options.method,
        headers: authorization ? { ...headers, authorization } : headers,
        body,
        signal: options.cancellationToken as AbortSignal | undefined,
      });
    // One new token when Box no longer takes the kept one; a second 401 is Box refusing the app.
    const response = options.auth ? await boxHttp.authorized(this.tokensOf(options.auth, options.networkSession), send) : await send();
    const bytes = await boxHttp.bytes(response);
    const data = parsed(bytes);
    if (response.status >= 400) {
      // A refused token comes with an empty body; its reason is in WWW-Authenticate.
      const challenge = /error_description="([^"]*)"/.exec(response.headers.get("www-authenticate") ?? "")?.[1];
      const { code, reason } = boxReason(data ?? (challenge ? { message: challenge } : undefined), response.status);
      const tokenGrant = url.pathname.endsWith("/oauth2/token");
      throw new BoxCallError(response.status, code, reason, retryAfterMs(response.headers.get("retry-after"), this.ctx.now()), tokenGrant);
    }
    if (response.status === 202) this.accepted.set(options.url, retryAfterMs(response.headers.get("retry-after"), this.ctx.now()));
    return {
      url: response.url,
      status: response.status,
      data: data as FetchResponse["data"],
      content: Readable.from([bytes]) as unknown as FetchResponse["content"],
      headers: Object.fromEntries(response.headers.entries()),
    };
  }
}

/** The SDK's client for the credential: CCG as the enterprise's service account or as one user. */
export function boxClient(settings: BoxSettings, ctx: VendorContext): BoxClient {
  const config = new CcgConfig({
    clientId: settings.client_key,
    clientSecret: settings.client_secret,
    ...(settings.box_subject_type === "user" ? { userId: settings.box_subject_id } : { enterpriseId: settings.box_subject_id }),
    tokenStorage: boxTokenStorage(settings, ctx),
  });
  const networkSession = new NetworkSession({ baseUrls: new BaseUrls(boxUrls(ctx.baseUrl)), networkClient: new GuardedBoxNetworkClient(ctx) });
  return new BoxClient({ auth: new BoxCcgAuth({ config }), networkSession });
}
