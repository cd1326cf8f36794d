import { type BoundedCache, boundedCache } from "../../app/common/bounded-cache";
import { readBoundedBody } from "../lib/bounded-body";
import { createHash } from "node:crypto";
import type { Response } from "undici";
import { type OutboundGuard, type OutboundPurpose, OutboundRefusedError } from "../outbound/guard";
import { stripControlCharacters } from "../lib/control-characters";
import { message } from "../lib/messages";

// The HTTP client of a title extraction provider, to the contract in docs/extraction-provider.md:
// a token from `{client_url}{auth_path}`, then `POST {client_url}/v1/title`. Every call goes
// through the outbound guard with a purpose whose only host is the client URL's own, so a
// firm's settings can point it at a public https host and nowhere else (decision 051).

/** Largest answer read from the provider: anything longer is refused unread. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Longest title taken as a document's name. */
export const MAX_TITLE_LENGTH = 255;
/** A token is renewed this long before the provider says it expires. */
const TOKEN_MARGIN_MS = 60_000;
// One token per provider and credentials a firm set; a handful per process.
const KEPT_TOKENS = 100;

/** Worth another try later, with back-off: the provider is busy, down or slow (429, 5xx, time-out). */
export class RetryableExtractionError extends Error {}
/** Never worth another try: refused credentials, a refused request or answer, a URL ECFX may not call. */
export class PermanentExtractionError extends Error {}

/** The provider settings of the applied document processing settings. */
export interface ProviderSettings {
  clientUrl: string;
  authPath: string;
  clientId: string;
  clientSecret: string;
  customerId: string;
  queueName: string;
}

/** What the provider is asked about one document. */
export interface TitleQuestion {
  document_name: string;
  court_document_id: string | null;
  text: string;
}

export interface TitleClientOptions {
  guard: OutboundGuard;
  timeoutMs: number;
  now: () => number;
}

const failure = (key: string, values: Record<string, unknown> = {}) => message(`errors:extraction.${key}`, values);

/** The only host a provider's calls may reach: the one its client URL names. */
function providerPurpose(base: URL): OutboundPurpose {
  const host = base.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return { name: "title extraction provider", hostAllowed: (candidate) => candidate === host };
}

/** The client URL and a path under it; a URL that does not parse is the firm's to fix. */
function endpoint(settings: ProviderSettings, path: string): URL {
  try {
    const base = new URL(settings.clientUrl);
    // One leading slash: "//other.host/x" is a path under the client URL, never another host.
    return new URL(`${base.pathname.replace(/\/$/, "")}/${path.replace(/^\/+/, "")}`, base.origin);
  } catch {
    throw new PermanentExtractionError(failure("badUrl"));
  }
}

/** The answer's body, refused past MAX_ANSWER_BYTES without reading the rest. */
async function boundedJson(response: Response): Promise<unknown> {
  const bytes = await readBoundedBody(response, MAX_ANSWER_BYTES, () => new PermanentExtractionError(failure("tooLarge", { max: MAX_ANSWER_BYTES })));
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    throw new PermanentExtractionError(failure("notJson"));
  }
}

/** 429 and 5xx pass; any other refusal is final. The provider's words are not repeated: they may echo what was sent. */
function refusal(step: "token" | "title", status: number): Error {
  if (status === 429 || status >= 500) return new RetryableExtractionError(failure("busy", { step, status }));
  return new PermanentExtractionError(failure(status === 401 || status === 403 ? "unauthorized" : "refused", { step, status }));
}

/** A title the document may be named: text, one line, no control characters, not too long. */
export function acceptedTitle(answer: unknown): string {
  const title = typeof answer === "object" && answer !== null ? (answer as { title?: unknown }).title : undefined;
  if (typeof title !== "string" || !title.trim()) throw new PermanentExtractionError(failure("noTitle"));
  if (/[\t\r\n]/.test(title) || stripControlCharacters(title) !== title) throw new PermanentExtractionError(failure("controlCharacters"));
  const trimmed = title.trim();
  if (trimmed.length > MAX_TITLE_LENGTH) throw new PermanentExtractionError(failure("titleTooLong", { max: MAX_TITLE_LENGTH }));
  return trimmed;
}

export class TitleClient {
  // Per provider and credentials: a changed secret never reuses the old secret's token. Each is
  // kept until a margin before the provider says it ends.
  private readonly tokens: BoundedCache<string>;
  constructor(private readonly options: TitleClientOptions) {
    this.tokens = boundedCache({ max: KEPT_TOKENS, now: options.now });
  }

  /** The title the provider gives the document; throws Retryable… or Permanent…ExtractionError. */
  async extractTitle(settings: ProviderSettings, question: TitleQuestion): Promise<string> {
    const key = createHash("sha256")
      .update(JSON.stringify([settings.clientUrl, settings.authPath, settings.clientId, settings.clientSecret]))
      .digest("hex");
    const kept = this.tokens.get(key);
    const token = kept ?? (await this.newToken(key, settings));
    const response = await this.post(endpoint(settings, "/v1/title"), settings, {
      headers: { authorization: `Bearer ${token}` },
      json: { customer_id: settings.customerId, queue_name: settings.queueName, ...question },
    });
    if (!response.ok) {
      await response.body?.cancel();
      // A kept token the provider no longer takes is dropped, so the next try asks for a new one.
      if (response.status === 401 && kept === token) {
        this.tokens.forget(key);
        throw new RetryableExtractionError(failure("busy", { step: "title", status: response.status }));
      }
      throw refusal("title", response.status);
    }
    return acceptedTitle(await boundedJson(response));
  }

  private async newToken(key: string, settings: ProviderSettings): Promise<string> {
    const response = await this.post(endpoint(settings, settings.authPath), settings, {
      json: { client_id: settings.clientId, client_secret: settings.clientSecret },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw refusal("token", response.status);
    }
    const answer = (await boundedJson(response)) as { access_token?: unknown; expires_in?: unknown };
    if (typeof answer.access_token !== "string" || !answer.access_token) throw new PermanentExtractionError(failure("noToken"));
    const seconds = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : 0;
    this.tokens.set(key, answer.access_token, seconds * 1000 - TOKEN_MARGIN_MS);
    return answer.access_token;
  }

  /** One JSON POST through the guard, with the time-out; what cannot be reached now is retried later. */
  private async post(url: URL, settings: ProviderSettings, request: { headers?: Record<string, string>; json: unknown }): Promise<Response> {
    try {
      return await this.options.guard.fetch(url, providerPurpose(new URL(settings.clientUrl)), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...request.headers },
        body: JSON.stringify(request.json),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new PermanentExtractionError(error.message);
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new RetryableExtractionError(failure("timeout", { seconds: Math.round(this.options.timeoutMs / 1000) }));
      }
      throw new RetryableExtractionError(failure("unreachable", { host: url.host }));
    }
  }
}
