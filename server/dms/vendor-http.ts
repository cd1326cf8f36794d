import { type BodyInit, Response } from "undici";
import type { ZodType, ZodTypeDef } from "zod";
import { readBoundedBody } from "../lib/bounded-body";
import { type GuardedConnection, type OutboundPurpose, OutboundRefusedError } from "../outbound/guard";
import { DmsTargetError } from "./dms-target";
import type { StoredToken, VendorContext } from "./vendor-target";

// The one HTTP layer every DMS connector calls its vendor through, SDKs included: each request
// passes the product's outbound guard (server/outbound/) with the context's time-out, answers are
// read up to a bound, answers are parsed by the connector's zod schemas, and every failure becomes
// a DmsTargetError that says whether another attempt may succeed (throttling with the vendor's
// Retry-After, the vendor's own faults, a time-out) or someone must act first (a guard refusal,
// any other refusal in the vendor's own words, an answer of another shape).

export interface VendorHttpSpec {
  /** The credential kind failures are reported under. */
  kind: string;
  /** How sentences name the system: "Clio", "iManage". */
  vendor: string;
  /** Largest answer read; anything longer is refused without reading the rest. */
  maxAnswerBytes: number;
  /** The vendor's own words for a refusal, from its JSON body. */
  reasonOf(body: unknown): string | undefined;
}

export interface VendorRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** A caller's own cancellation (an SDK's), besides the time-out. */
  signal?: AbortSignal;
  /** The kept-alive connection to send on, for sign-ins that authenticate a connection (NTLM). */
  via?: GuardedConnection;
}

/** A zod schema of an answer (its output may differ from its input: defaults, transforms). */
export type Schema<T> = ZodType<T, ZodTypeDef, unknown>;

/** A fetch for an SDK that takes one: the answer comes back whole, read within the bound. */
export type VendorFetch = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: BodyInit }) => Promise<Response>;

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** Statuses whose answer has no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const when = Date.parse(value);
  return Number.isNaN(when) ? undefined : Math.max(0, when - now);
}

/** A trimmed text value, or undefined: what a refusal's fields are read with. */
export const textOf = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** The hosts one credential may reach: the vendor's own and the operator's switch. */
export function hostsPurpose(name: string, hosts: Iterable<string>): OutboundPurpose {
  const allowed = new Set([...hosts].map((host) => host.replace(/^\[|\]$/g, "").toLowerCase()));
  return { name, hostAllowed: (host) => allowed.has(host) };
}

/**
 * Where a connector's bearer token comes from: `current` is the one to send now, `renew` gets a
 * new one after the vendor refused `rejected` (and throws the connector's own "connect again"
 * error when only a person can mend it).
 */
export interface TokenSource<T = StoredToken> {
  current(): Promise<T>;
  renew(rejected: T): Promise<T>;
}

// Renewals under way, per token source: calls refused at once wait for one renewal, never start
// their own (a vendor may revoke the first new token when a second is asked for).
const renewals = new WeakMap<object, Promise<unknown>>();

function renewOnce<T>(source: TokenSource<T>, rejected: T): Promise<T> {
  let pending = renewals.get(source) as Promise<T> | undefined;
  if (!pending) {
    pending = source.renew(rejected).finally(() => renewals.delete(source));
    renewals.set(source, pending);
  }
  return pending;
}

/** Whether `headers` authorise with a bearer token (an SDK's call, not its sign-in). */
const bearerIn = (headers: Record<string, string> = {}) =>
  Object.entries(headers).some(([name, value]) => name.toLowerCase() === "authorization" && /^bearer /i.test(value));

/** `headers` with `token` as the only Authorization, whatever case the caller wrote it in. */
function withBearer(headers: Record<string, string> = {}, token: string): Record<string, string> {
  const kept = Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization");
  return { ...Object.fromEntries(kept), authorization: `Bearer ${token}` };
}

export type VendorHttp = ReturnType<typeof vendorHttp>;

export function vendorHttp(spec: VendorHttpSpec) {
  const { kind, vendor } = spec;
  const failure = (text: string, retryable: boolean, options?: { cause?: unknown; retryAfterMs?: number }) =>
    new DmsTargetError(kind, text, retryable, options);

  /** The answer's bytes, refused past `max` (the spec's bound unless a call reads content of its own size). */
  async function bytes(response: Response, max = spec.maxAnswerBytes): Promise<Buffer> {
    const tooLarge = () => failure(`${vendor} sent an answer larger than ${max} bytes`, false);
    try {
      return await readBoundedBody(response, max, tooLarge);
    } catch (error) {
      if (error instanceof DmsTargetError) throw error;
      if (isTimeout(error)) throw failure(`${vendor} stopped answering part way`, true, { cause: error });
      throw failure(`${vendor}'s answer was cut short`, true, { cause: error });
    }
  }

  const text = async (response: Response) => (await bytes(response)).toString("utf8");

  /** The vendor's reason in a refusal's body text; none when the body is not the vendor's JSON. */
  const reasonInText = (body: string) => {
    try {
      return spec.reasonOf(JSON.parse(body));
    } catch {
      return undefined;
    }
  };

  const layer = {
    kind,
    vendor,

    /** Sends one request; what cannot be reached now is worth a retry, what the guard refuses is not. */
    async send(ctx: VendorContext, purpose: OutboundPurpose, url: URL, request: VendorRequest = {}): Promise<Response> {
      const timeout = AbortSignal.timeout(ctx.timeoutMs);
      const init = {
        method: request.method ?? "GET",
        headers: request.headers ?? {},
        body: request.body,
        signal: request.signal ? AbortSignal.any([timeout, request.signal]) : timeout,
      };
      try {
        return await (request.via ? request.via.fetch(url, init) : ctx.guard.fetch(url, purpose, init));
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw failure(`${vendor} may not be reached at ${url.host}: ${error.message}`, false, { cause: error });
        if (isTimeout(error)) throw failure(`${vendor} did not answer within ${Math.ceil(ctx.timeoutMs / 1000)} s`, true, { cause: error });
        const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
        throw failure(`${vendor} could not be reached at ${url.host}: ${cause}`, true, { cause: error });
      }
    },

    /**
     * `send` for an SDK's request: one it authorises with a bearer token carries the token of
     * `tokens` in its place, renewed as `authorized` does; any other (its sign-in) is sent as it is.
     */
    async sendWith(
      tokens: TokenSource<string> | undefined,
      ctx: VendorContext,
      purpose: OutboundPurpose,
      url: URL,
      request: VendorRequest = {},
    ): Promise<Response> {
      if (!tokens || !bearerIn(request.headers)) return layer.send(ctx, purpose, url, request);
      return layer.authorized(tokens, (token) => layer.send(ctx, purpose, url, { ...request, headers: withBearer(request.headers, token) }));
    },

    /**
     * The layer as a fetch for an SDK that takes one (Dropbox's): every call through `send`, the
     * answer read whole within the bound and handed back, so nothing later waits on a slow body.
     * `map` moves the SDK's fixed URLs to the operator's hosts; `tokens` are as `sendWith` uses them.
     */
    fetchFor(ctx: VendorContext, purpose: OutboundPurpose, map: (url: string) => URL = (url) => new URL(url), tokens?: TokenSource<string>): VendorFetch {
      return async (url, init = {}) => {
        const response = await layer.sendWith(tokens, ctx, purpose, map(url), init);
        const body = await bytes(response);
        return new Response(NO_BODY.has(response.status) ? null : body, { status: response.status, headers: response.headers });
      };
    },

    /**
     * A call with a bearer token: `attempt` sends it with the token it is given. A 401 renews the
     * token once (one renewal for all calls refused at the same time) and sends again; a second 401
     * comes back to the caller, whose `refusal` makes it a permanent failure in the vendor's words:
     * the vendor refuses the credential itself, and a person must authorise it again.
     */
    async authorized<T>(source: TokenSource<T>, attempt: (token: T) => Promise<Response>): Promise<Response> {
      const token = await source.current();
      const first = await attempt(token);
      if (first.status !== 401) return first;
      await first.body?.cancel();
      return attempt(await renewOnce(source, token));
    },

    bytes,
    text,

    /** A successful answer's JSON; an empty body reads as null. */
    async json(response: Response): Promise<unknown> {
      const body = await text(response);
      if (!body.trim()) return null;
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw failure(`${vendor} sent an answer that is not JSON`, false);
      }
    },

    /** A vendor answer through its schema; another shape is a permanent failure naming what is wrong, never a wrong filing. */
    parse<T>(schema: Schema<T>, body: unknown, action: string): T {
      const parsed = schema.safeParse(body);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join(".") : "the answer";
      throw failure(`${vendor} answered ${action} in an unexpected shape: ${where}: ${issue?.message ?? "unreadable"}`, false);
    },

    /** A successful answer's JSON parsed by `schema`. */
    async answer<T>(response: Response, schema: Schema<T>, action: string): Promise<T> {
      return layer.parse(schema, await layer.json(response), action);
    },

    /** The reason in a refusal's body, read within the bound; none when the body is not the vendor's JSON. */
    async reasonIn(response: Response): Promise<string | undefined> {
      return reasonInText(await text(response).catch(() => ""));
    },

    /**
     * A refused call as a DmsTargetError: 429 waits as long as the vendor asks, 5xx is tried again,
     * anything else needs the firm to act. `action` names what was refused ("the upload");
     * `prefix` replaces the sentence's start (sign-in's own wording).
     */
    async refusal(ctx: VendorContext, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
      return layer.refusalOf(ctx, response, await text(response).catch(() => ""), action, prefix);
    },

    /** As `refusal`, for an answer whose body the caller has read already (to look for a vendor's code in it). */
    refusalOf(ctx: VendorContext, response: Response, body: string, action: string, prefix?: string): DmsTargetError {
      const { status } = response;
      const detail = reasonInText(body) ?? `HTTP ${status}`;
      if (status === 429) {
        const wait = retryAfterMs(response.headers.get("retry-after"), ctx.now());
        return failure(`${prefix ?? `${vendor} is throttling ${action}`}: ${detail}`, true, { retryAfterMs: wait });
      }
      if (status >= 500) {
        const wait = retryAfterMs(response.headers.get("retry-after"), ctx.now());
        return failure(`${prefix ?? `${vendor} failed ${action}`}: ${detail} (HTTP ${status})`, true, { retryAfterMs: wait });
      }
      return failure(`${prefix ?? `${vendor} refused ${action}`}: ${detail}`, false);
    },
  };
  return layer;
}
