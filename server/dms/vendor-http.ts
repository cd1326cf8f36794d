import type { BodyInit, Response } from "undici";
import { readBoundedBody } from "../lib/bounded-body";
import { type OutboundPurpose, OutboundRefusedError } from "../outbound/guard";
import { DmsTargetError } from "./dms-target";
import type { VendorContext } from "./vendor-target";

// One call to a vendor's REST API through the product's outbound guard, as the clients that speak
// plain HTTP share it: a time-out on every call, answers read up to a bound, and every failure
// turned into a DmsTargetError that says whether another attempt may succeed (throttling with the
// vendor's Retry-After, the vendor's own faults, a time-out) or someone must act first (any other
// refusal, in the vendor's own words).

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
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

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

export function vendorHttp(spec: VendorHttpSpec) {
  const { kind, vendor } = spec;
  const failure = (text: string, retryable: boolean, options?: { cause?: unknown; retryAfterMs?: number }) =>
    new DmsTargetError(kind, text, retryable, options);

  async function text(response: Response): Promise<string> {
    const tooLarge = () => failure(`${vendor} sent an answer larger than ${spec.maxAnswerBytes} bytes`, false);
    try {
      return (await readBoundedBody(response, spec.maxAnswerBytes, tooLarge)).toString("utf8");
    } catch (error) {
      if (error instanceof DmsTargetError) throw error;
      if (isTimeout(error)) throw failure(`${vendor} stopped answering part way`, true, { cause: error });
      throw failure(`${vendor}'s answer was cut short`, true, { cause: error });
    }
  }

  return {
    /** Sends one request; what cannot be reached now is worth a retry, what the guard refuses is not. */
    async send(ctx: VendorContext, purpose: OutboundPurpose, url: URL, request: VendorRequest = {}): Promise<Response> {
      try {
        return await ctx.guard.fetch(url, purpose, {
          method: request.method ?? "GET",
          headers: request.headers ?? {},
          body: request.body,
          signal: AbortSignal.timeout(ctx.timeoutMs),
        });
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw failure(`${vendor} may not be reached at ${url.host}: ${error.message}`, false, { cause: error });
        if (isTimeout(error)) throw failure(`${vendor} did not answer within ${Math.ceil(ctx.timeoutMs / 1000)} s`, true, { cause: error });
        const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
        throw failure(`${vendor} could not be reached at ${url.host}: ${cause}`, true, { cause: error });
      }
    },

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

    /** The reason in a refusal's body, read within the bound; none when the body is not the vendor's JSON. */
    async reasonIn(response: Response): Promise<string | undefined> {
      try {
        return spec.reasonOf(JSON.parse(await text(response)));
      } catch {
        return undefined;
      }
    },

    /**
     * A refused call as a DmsTargetError: 429 waits as long as the vendor asks, 5xx is tried again,
     * anything else needs the firm to act. `action` names what was refused ("the upload");
     * `prefix` replaces the sentence's start (sign-in's own wording).
     */
    async refusal(ctx: VendorContext, response: Response, action: string, prefix?: string): Promise<DmsTargetError> {
      const { status } = response;
      const detail = (await this.reasonIn(response)) ?? `HTTP ${status}`;
      if (status === 429) {
        const wait = retryAfterMs(response.headers.get("retry-after"), ctx.now());
        return failure(`${prefix ?? `${vendor} is throttling ${action}`}: ${detail}`, true, { retryAfterMs: wait });
      }
      if (status >= 500) return failure(`${prefix ?? `${vendor} failed ${action}`}: ${detail} (HTTP ${status})`, true);
      return failure(`${prefix ?? `${vendor} refused ${action}`}: ${detail}`, false);
    },
  };
}
