import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { type OutboundGuard, type OutboundPurpose } from "../outbound/guard";
import type { BlobBackend } from "./blob-store";

export interface S3BlobsOptions {
  bucket: string;
  /** Keys start with it ("blobs/"), so one bucket can hold other things too. */
  prefix: string;
  region: string;
  /** An S3-compatible service's URL (MinIO, Ceph, R2 …); AWS's own when absent. */
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  guard: OutboundGuard;
}

const HASH = /^[0-9a-f]{64}$/;

/** AWS's S3 hosts; a named endpoint is the operator's origin and passes the guard as such. */
const S3_PURPOSE: OutboundPurpose = { name: "object store", hostAllowed: (host) => host.endsWith(".amazonaws.com") };

/**
 * Blobs as objects of an S3-compatible bucket, for installations whose hosts share no folder.
 * A PUT stores an object whole or not at all, so no half object is ever under a hash.
 */
export class S3Blobs implements BlobBackend {
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobsOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Every call leaves through the product's one outbound guard.
      requestHandler: guardedHandler(options.guard),
      maxAttempts: 3,
    });
  }

  private key(sha256: string): string {
    return `${this.options.prefix}${sha256.slice(0, 2)}/${sha256}`;
  }

  async write(sha256: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(sha256), Body: bytes, ContentLength: bytes.length }));
  }

  async read(sha256: string): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(sha256) }));
    if (!answer.Body) throw new Error(`object ${this.key(sha256)} has no body`);
    return Buffer.from(await answer.Body.transformToByteArray());
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.writtenAt(sha256)) !== null;
  }

  async writtenAt(sha256: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(sha256) }));
      return head.LastModified?.getTime() ?? 0;
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async remove(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(sha256) }));
  }

  /** A page of keys at a time (at most 1,000), so memory stays small however many there are. */
  async *list(): AsyncIterable<{ sha256: string; writtenAt: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.options.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const sha256 = object.Key?.slice(object.Key.lastIndexOf("/") + 1) ?? "";
        if (HASH.test(sha256)) yield { sha256, writtenAt: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** What the SDK hands its HTTP handler (Smithy's HttpRequest), as far as it is read here. */
interface SdkRequest {
  protocol: string;
  hostname: string;
  port?: number;
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

/** RFC 3986 encoding, as Signature Version 4 signs the query. */
const uriEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryOf(query: SdkRequest["query"]): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null) parts.push(uriEncode(key));
    else for (const one of Array.isArray(value) ? value : [value]) parts.push(`${uriEncode(key)}=${uriEncode(one)}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

type FetchInit = NonNullable<Parameters<OutboundGuard["fetch"]>[2]>;

/** Headers the fetch layer sets itself from the URL and the body. */
const SET_BY_FETCH = new Set(["host", "content-length", "transfer-encoding", "connection", "expect"]);

/** The SDK's HTTP handler: the request through OutboundGuard.fetch, the answer as the SDK reads it. */
function guardedHandler(guard: OutboundGuard) {
  return {
    async handle(request: SdkRequest, options?: { abortSignal?: AbortSignal }) {
      const port = request.port ? `:${request.port}` : "";
      const url = new URL(`${request.protocol}//${request.hostname}${port}${request.path}${queryOf(request.query)}`);
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !SET_BY_FETCH.has(name.toLowerCase())));
      const body =
        request.body === undefined || request.body === null ? undefined : request.body instanceof Readable ? Readable.toWeb(request.body) : request.body;
      const response = await guard.fetch(url, S3_PURPOSE, {
        method: request.method,
        headers,
        body: body as FetchInit["body"],
        signal: options?.abortSignal,
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      });
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (answerHeaders[name] = value));
      return {
        response: {
          statusCode: response.status,
          reason: response.statusText,
          headers: answerHeaders,
          body: response.body ? Readable.fromWeb(response.body as WebReadableStream) : Readable.from([]),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
}
