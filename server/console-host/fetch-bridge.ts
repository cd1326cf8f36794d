import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";

/**
 * The Fetch Request Remix reads, made from Express's. The host and protocol are Express's, which
 * believe X-Forwarded-Host/-Proto only from trusted proxies. A client that goes away aborts the
 * loaders and actions still running for it.
 */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const port = req.get("host")?.match(/:(\d+)$/)?.[1];
  const url = new URL(req.originalUrl, `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}`);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // The address the client is believed to have, replacing whatever X-Forwarded-For it sent.
  headers.set("X-Forwarded-For", req.ip ?? "");
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** The name of the cookie a Set-Cookie value sets. */
const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("="));

/**
 * Sends Remix's answer through Express. `sessionCookie`, the session a refresh of the user's tokens
 * wrote while answering, goes with it unless the answer sets the session cookie itself (a sign-out
 * clears it, a changed password writes another): see decision 142.
 */
export async function sendFetchResponse(res: ExpressResponse, response: Response, sessionCookie?: string): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (sessionCookie && !response.headers.getSetCookie().some((c) => cookieName(c) === cookieName(sessionCookie))) res.append("Set-Cookie", sessionCookie);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
