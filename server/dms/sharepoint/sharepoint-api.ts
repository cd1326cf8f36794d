import type { Response } from "undici";
import type { ZodType, ZodTypeDef } from "zod";
import { DmsTargetError } from "../dms-target";
import { boundedJson, refusal } from "../guarded-call";

// What both SharePoint APIs (Graph and SharePoint REST) offer the library code: send a request
// (signing in again once when the token is refused), and read its answer as JSON parsed by the
// zod schema of what the caller reads, as "not there" or as a DmsTargetError in the vendor's
// words. An answer off its schema is a permanent failure that says what was missing.

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

/** A zod schema of an answer (its output may differ from its input: defaults, transforms). */
export type Schema<T> = ZodType<T, ZodTypeDef, unknown>;

/** A vendor answer parsed by its schema; off the schema, a permanent DmsTargetError naming what is wrong. */
export function parseAnswer<T>(kind: string, schema: Schema<T>, body: unknown, action: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "the answer";
  throw new DmsTargetError(kind, `SharePoint's answer ${action} is not what its API describes: ${where}: ${issue?.message ?? "unreadable"}`, false);
}

export abstract class SharePointApi {
  constructor(
    readonly kind: string,
    protected readonly now: () => number,
  ) {}

  /** The raw answer; only a refused token and an unreachable host throw. */
  abstract send(request: ApiRequest): Promise<Response>;

  /** The answer's JSON; any status but 2xx becomes a DmsTargetError. */
  async json<T>(request: ApiRequest, schema: Schema<T>): Promise<T> {
    return this.read(await this.send(request), request.action, schema);
  }

  /** An answer already received, read as JSON when it is a success. */
  async read<T>(response: Response, action: string, schema: Schema<T>): Promise<T> {
    if (!response.ok) throw await refusal(response, this.kind, "SharePoint", action, this.now());
    return parseAnswer(this.kind, schema, await boundedJson<unknown>(response, this.kind), action);
  }

  /** Fails unless the answer is a success; its body is not needed. */
  async expectOk(response: Response, action: string): Promise<void> {
    if (!response.ok) throw await refusal(response, this.kind, "SharePoint", action, this.now());
    await response.body?.cancel();
  }

  /** The JSON of what the request names, or null when SharePoint says it is not there. */
  async find<T>(request: ApiRequest, schema: Schema<T>): Promise<T | null> {
    const response = await this.send(request);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return this.read(response, request.action, schema);
  }
}
