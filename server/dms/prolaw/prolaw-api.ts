import type { Response } from "undici";
import type { OutboundPurpose } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import { type Schema, hostsPurpose, retryAfterMs, vendorHttp } from "../vendor-http";
import type { VendorContext } from "../vendor-target";

// One call to the firm's ProLaw REST API (the contract ECFX implements is
// tests/fixtures/openapi/prolaw/prolaw-rest.yaml, explained in docs/dms/prolaw.md) through the
// vendors' one HTTP layer (vendor-http.ts: the outbound guard, a time-out, answers read up to a
// bound): the API key in X-API-Key on every request, answers parsed with the zod schemas of
// prolaw-types.ts, and ProLaw's refusals turned into DmsTargetError with ProLaw's own words.

export const PROLAW_KIND = "pro_law_credential";

/** Largest answer read: pages of matters, folders and documents. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const http = vendorHttp({
  kind: PROLAW_KIND,
  vendor: "ProLaw",
  maxAnswerBytes: MAX_ANSWER_BYTES,
  reasonOf: (body) => {
    const { Message, MessageDetail, message } = (body ?? {}) as { Message?: unknown; MessageDetail?: unknown; message?: unknown };
    return [Message ?? message, MessageDetail].filter((part) => typeof part === "string" && part).join(" ") || undefined;
  },
});

/** ProLaw's reason in an error body: ASP.NET Web API's {"Message", "MessageDetail"}, else the text. */
export function proLawReason(body: string): string {
  try {
    const parsed = JSON.parse(body) as { Message?: unknown; MessageDetail?: unknown; message?: unknown };
    const message = [parsed.Message ?? parsed.message, parsed.MessageDetail].filter((part) => typeof part === "string" && part).join(" ");
    if (message) return message;
  } catch {
    // not JSON: the text itself
  }
  return body.replace(/\s+/g, " ").trim().slice(0, 300);
}

export interface ProLawRequest {
  method?: "GET" | "POST";
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Buffer;
  contentType?: string;
}

export class ProLawApi {
  private readonly base: URL;
  private readonly purpose: OutboundPurpose;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly ctx: VendorContext,
  ) {
    let base: URL;
    try {
      base = new URL(baseUrl.trim());
    } catch {
      throw new DmsTargetError(PROLAW_KIND, `The ProLaw base URL "${baseUrl}" is not an address`, false);
    }
    if (!/^https?:$/.test(base.protocol)) throw new DmsTargetError(PROLAW_KIND, `The ProLaw base URL "${baseUrl}" is not an http(s) address`, false);
    base.pathname = base.pathname.replace(/\/+$/, "");
    base.search = "";
    base.hash = "";
    this.base = base;
    // The credential's own server only: ProLaw has no vendor-wide host.
    this.purpose = hostsPurpose("ProLaw", [base.hostname]);
  }

  get host(): string {
    return this.base.host;
  }

  /** `path` below the base URL, segments already encoded. */
  url(path: string, query: ProLawRequest["query"] = {}): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname}/${path}`;
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /** The answer of a call that succeeded, parsed by `schema`; `null` for a status in `nullOn` (404 missing, 409 taken); DmsTargetError otherwise. */
  async send<T>(path: string, action: string, schema: Schema<T>, request: ProLawRequest = {}, nullOn: number[] = []): Promise<T | null> {
    const headers: Record<string, string> = { "x-api-key": this.apiKey, accept: "application/json" };
    let body: Buffer | string | undefined = request.body;
    if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.json);
    } else if (request.contentType) headers["content-type"] = request.contentType;
    const response = await http.send(this.ctx, this.purpose, this.url(path, request.query), { method: request.method ?? "GET", headers, body });
    if (response.ok) {
      return http.answer(response, schema, action);
    }
    if (nullOn.includes(response.status)) {
      await response.body?.cancel();
      return null;
    }
    throw await this.refusal(response, action);
  }

  async get<T>(path: string, action: string, schema: Schema<T>, query?: ProLawRequest["query"]): Promise<T> {
    return (await this.send(path, action, schema, { query }))!;
  }

  /** 429 and 5xx retryable (with ProLaw's Retry-After), a refused key and every other refusal permanent. */
  async refusal(response: Response, action: string): Promise<DmsTargetError> {
    const reason = proLawReason(await http.text(response).catch(() => "")) || `HTTP ${response.status}`;
    if (response.status === 401 || response.status === 403) {
      return new DmsTargetError(PROLAW_KIND, `ProLaw refused the API key (${response.status}) ${action}: ${reason}`, false);
    }
    const retryable = response.status === 429 || response.status >= 500;
    const text = retryable
      ? `ProLaw is busy or unavailable (${response.status}) ${action}: ${reason}`
      : `ProLaw refused ${action} (${response.status}): ${reason}`;
    return new DmsTargetError(PROLAW_KIND, text, retryable, { retryAfterMs: retryAfterMs(response.headers.get("retry-after"), this.ctx.now()) });
  }
}
