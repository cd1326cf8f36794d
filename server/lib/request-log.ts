import { redactUrl } from "./redact";

// What the API and the console write about each request. At the default level (info) a request
// is one line when its answer has gone out: method, the path as asked (its query's secrets
// hidden), the API's route pattern where there is one, status and milliseconds. Anything more
// (the request as it starts, its client address) is written at debug only.

export interface RequestLine {
  method: string;
  url: string;
  route?: string;
  status: number;
  ms: number;
}

export function requestLine(method: string, url: string, status: number, elapsedMs: number, route?: string): RequestLine {
  return { method, url: redactUrl(url), ...(route ? { route } : {}), status, ms: Math.round(elapsedMs * 10) / 10 };
}
