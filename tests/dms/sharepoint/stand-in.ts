import http from "node:http";
import type { AddressInfo } from "node:net";

// What the SharePoint Online and SharePoint Server stand-ins share: a loopback HTTP server, the
// queue of failures a test asks for, and the requests refused as off-contract.

export interface Exchange {
  method: string;
  /** The path as sent, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

interface Failure {
  status: number;
  count: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

export class StandIn {
  private readonly failures: Failure[] = [];
  readonly violations: string[] = [];
  private server?: http.Server;
  origin = "";

  constructor(private readonly handle: (exchange: Exchange) => Promise<Answer> | Answer) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const exchange: Exchange = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        Promise.resolve()
          .then(() => this.failure(exchange.path) ?? this.handle(exchange))
          .then(
            (answer) => this.reply(res, answer),
            (error: Error) => this.reply(res, { status: 500, json: { error: { code: "generalException", message: error.message } } }),
          );
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  failNext(status: number, options: { count?: number; retryAfterSeconds?: number; path?: RegExp } = {}): void {
    this.failures.push({ status, count: options.count ?? 1, retryAfterSeconds: options.retryAfterSeconds, path: options.path });
  }

  /** Records a request off the vendor's contract and answers it as the vendor would: 400. */
  violation(exchange: Exchange, why: string): Answer {
    this.violations.push(`${exchange.method} ${exchange.path}: ${why}`);
    return { status: 400, json: { error: { code: "invalidRequest", message: why } } };
  }

  private failure(path: string): Answer | undefined {
    const failure = this.failures.find((candidate) => candidate.count > 0 && (!candidate.path || candidate.path.test(path)));
    if (!failure) return undefined;
    failure.count--;
    const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { "retry-after": String(failure.retryAfterSeconds) };
    const code =
      failure.status === 429 ? "TooManyRequests" : failure.status === 403 ? "accessDenied" : failure.status >= 500 ? "serviceNotAvailable" : "invalidRequest";
    const text =
      failure.status === 429
        ? "Too many requests"
        : failure.status === 403
          ? "Access denied. You do not have permission to perform this action or access this resource."
          : `The service answered ${failure.status}`;
    return { status: failure.status, headers, json: { error: { code, message: text } } };
  }

  private reply(res: http.ServerResponse, answer: Answer): void {
    const body = answer.json === undefined ? (answer.text ?? "") : JSON.stringify(answer.json);
    const type = answer.json === undefined ? "text/plain" : "application/json";
    res.writeHead(answer.status, { "content-type": type, ...answer.headers });
    res.end(answer.status === 204 ? undefined : body);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The bearer token of a request, or undefined. */
export const bearer = (exchange: Exchange) => /^Bearer (.+)$/i.exec(String(exchange.headers.authorization ?? ""))?.[1];
