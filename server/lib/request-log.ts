import { redactUrl } from "./redact";

// What the API and the console write about each request. At the default level (info) a request
// is one line: method, route, status and milliseconds. The route is the route's pattern where
// there is one, otherwise the path; never the query string, which can carry tokens. Anything
// more (the request as it starts, its client address) is written at debug only.

export interface RequestLine {
  method: string;
  route: string;
  status: number;
  ms: number;
}

/** The route a log line names: a pattern as it is; a path with its query left off and any token in it hidden. */
export function loggedRoute(pattern: string | undefined, url: string): string {
  return pattern ?? redactUrl(url.split(/[?#]/, 1)[0] ?? "");
}

export function requestLine(method: string, route: string, status: number, elapsedMs: number): RequestLine {
  return { method, route, status, ms: Math.round(elapsedMs * 10) / 10 };
}
