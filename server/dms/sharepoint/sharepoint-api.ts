import type { Response } from "undici";
import { boundedJson, refusal } from "../guarded-call";

// What both SharePoint APIs (Graph and SharePoint REST) offer the library code: send a request
// (signing in again once when the token is refused), and read its answer as JSON, as "not
// there" or as a DmsTargetError in the vendor's words.

export interface ApiRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below the API's base. */
  path: string;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** What the call does, for messages: "the upload of …", "creating folder …". */
  action: string;
}

export abstract class SharePointApi {
  constructor(
    readonly kind: string,
    protected readonly now: () => number,
  ) {}

  /** The raw answer; only a refused token and an unreachable host throw. */
  abstract send(request: ApiRequest): Promise<Response>;

  /** The answer's JSON; any status but 2xx becomes a DmsTargetError. */
  async json<T>(request: ApiRequest): Promise<T> {
    return this.read<T>(await this.send(request), request.action);
  }

  /** An answer already received, read as JSON when it is a success. */
  async read<T>(response: Response, action: string): Promise<T> {
    if (!response.ok) throw await refusal(response, this.kind, "SharePoint", action, this.now());
    return boundedJson<T>(response, this.kind);
  }

  /** Fails unless the answer is a success; its body is not needed. */
  async expectOk(response: Response, action: string): Promise<void> {
    if (!response.ok) throw await refusal(response, this.kind, "SharePoint", action, this.now());
    await response.body?.cancel();
  }

  /** The JSON of what the request names, or null when SharePoint says it is not there. */
  async find<T>(request: ApiRequest): Promise<T | null> {
    const response = await this.send(request);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return this.read<T>(response, request.action);
  }
}
