import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DmsTargetError } from "../../server/dms/dms-target";
import { hostsPurpose, vendorHttp } from "../../server/dms/vendor-http";
import type { VendorContext } from "../../server/dms/vendor-target";
import { OutboundGuard } from "../../server/outbound/guard";

// The one HTTP layer every connector calls its vendor through: a call that outlasts its time-out
// is retryable, an answer past the bound is refused, a host outside the purpose is never called,
// refusals carry the vendor's words and Retry-After, an answer of another shape is a clear
// permanent failure, requests can share one kept-alive connection (Windows sign-in), an SDK's
// fetch gets whole answers, and a refused bearer token is renewed once (once for all calls
// refused together) before the refusal is the vendor's.

const NOW = Date.UTC(2026, 10, 26, 8, 0, 0);
let server: http.Server;
let origin: string;
const sockets: number[] = [];
/** Bearer tokens the test server takes, and those it was sent, in order. */
const accepted = new Set<string>();
const bearerSeen: string[] = [];
const guards: OutboundGuard[] = [];
const layer = vendorHttp({
  kind: "share_point_cloud_credential",
  vendor: "SharePoint",
  maxAnswerBytes: 1024 * 1024,
  reasonOf: (body) => (body as { error?: { message?: string } } | null)?.error?.message,
});
const purpose = () => hostsPurpose("SharePoint test", ["127.0.0.1"]);

function context(timeoutMs = 5_000): VendorContext {
  const guard = new OutboundGuard({ allowedOrigins: [origin] });
  guards.push(guard);
  const tokens = { read: async () => null, write: async () => undefined, clear: async () => undefined };
  return { guard, baseUrl: origin, tokens, sleep: async () => undefined, now: () => NOW, timeoutMs };
}

beforeAll(async () => {
  let socketIds = 0;
  const ids = new WeakMap<object, number>();
  server = http.createServer((req, res) => {
    if (!ids.has(req.socket)) ids.set(req.socket, ++socketIds);
    if (req.url === "/silent") return; // never answers
    if (req.url === "/huge") {
      // Chunked, without a length: the bound must hold while reading.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`[${"0,".repeat(1024 * 1024)}`);
      res.end("0]");
      return;
    }
    if (req.url === "/throttled") {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "7" });
      res.end('{"error":{"message":"Slow down"}}');
      return;
    }
    if (req.url === "/down") {
      res.writeHead(503, { "content-type": "text/html" });
      res.end("<html>Service Unavailable</html>");
      return;
    }
    if (req.url === "/denied") {
      res.writeHead(403, { "content-type": "application/json" });
      res.end('{"error":{"message":"Access denied"}}');
      return;
    }
    if (req.url === "/bearer") {
      const token = /^Bearer (.*)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      bearerSeen.push(token);
      res.writeHead(accepted.has(token) ? 200 : 401, { "content-type": "application/json" });
      res.end(accepted.has(token) ? '{"id":"01A","name":"Notice.pdf"}' : '{"error":{"message":"The access token is no longer valid"}}');
      return;
    }
    if (req.url === "/socket") {
      sockets.push(ids.get(req.socket)!);
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"id":"01A","name":"Notice.pdf"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(guards.map((g) => g.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const item = z.object({ id: z.string(), name: z.string() });

/** A token source that hands out "old" until renewed; renewals wait for `release` when one is given. */
function tokenSource(release?: Promise<void>) {
  let token = "old";
  const source = {
    renewals: 0,
    current: async () => token,
    renew: async (rejected: string) => {
      source.renewals += 1;
      expect(rejected).toBe("old");
      await release;
      token = `new-${source.renewals}`;
      return token;
    },
  };
  return source;
}

describe("bearer tokens in the vendors' HTTP layer", () => {
  const call = (ctx: VendorContext, source: ReturnType<typeof tokenSource>) =>
    layer.authorized(source, (token) => layer.send(ctx, purpose(), new URL(`${origin}/bearer`), { headers: { authorization: `Bearer ${token}` } }));

  it("renews a token the vendor refuses (401) once and sends the call again with the new one", async () => {
    accepted.clear();
    accepted.add("new-1");
    bearerSeen.length = 0;
    const source = tokenSource();
    const response = await call(context(), source);
    expect(response.status).toBe(200);
    expect(await layer.answer(response, item, "reading the file")).toEqual({ id: "01A", name: "Notice.pdf" });
    expect(source.renewals).toBe(1);
    expect(bearerSeen).toEqual(["old", "new-1"]);
  });

  it("does not renew again when the new token is refused too: the refusal is permanent, in the vendor's words", async () => {
    accepted.clear();
    bearerSeen.length = 0;
    const ctx = context();
    const source = tokenSource();
    const response = await call(ctx, source);
    expect(response.status).toBe(401);
    const error = await layer.refusal(ctx, response, "the upload");
    expect(error).toMatchObject({ retryable: false, message: "SharePoint refused the upload: The access token is no longer valid" });
    expect(source.renewals).toBe(1);
    expect(bearerSeen).toEqual(["old", "new-1"]);
  });

  it("passes on the connector's own error when a token cannot be renewed without a person", async () => {
    accepted.clear();
    const again = new DmsTargetError("share_point_cloud_credential", "Token generation failed: the grant was revoked; connect again", false);
    const source = { current: async () => "old", renew: async (): Promise<string> => Promise.reject(again) };
    await expect(
      layer.authorized(source, (token) => layer.send(context(), purpose(), new URL(`${origin}/bearer`), { headers: { authorization: `Bearer ${token}` } })),
    ).rejects.toBe(again);
  });

  it("gives an SDK's fetch the source's token in place of the SDK's own, renewed the same way, and leaves its sign-in alone", async () => {
    accepted.clear();
    accepted.add("new-1");
    bearerSeen.length = 0;
    const source = tokenSource();
    const fetch = layer.fetchFor(context(), purpose(), undefined, source);
    const answer = await fetch(`${origin}/bearer`, { headers: { Authorization: "Bearer the-sdk's" } });
    expect(answer.status).toBe(200);
    expect(bearerSeen).toEqual(["old", "new-1"]);
    // A call authorised another way (an app's Basic sign-in) is sent as the SDK wrote it, and not renewed.
    const signIn = await fetch(`${origin}/bearer`, { headers: { Authorization: "Basic YXBwOnNlY3JldA==" } });
    expect(signIn.status).toBe(401);
    expect(bearerSeen).toEqual(["old", "new-1", ""]);
    expect(source.renewals).toBe(1);
  });

  it("renews once for two calls refused at the same time", async () => {
    accepted.clear();
    accepted.add("new-1");
    bearerSeen.length = 0;
    let release!: () => void;
    const source = tokenSource(new Promise<void>((resolve) => (release = resolve)));
    const ctx = context();
    const both = Promise.all([call(ctx, source), call(ctx, source)]);
    // Both calls are refused before the one renewal ends.
    await expect.poll(() => bearerSeen.length).toBe(2);
    release();
    const answers = await both;
    expect(answers.map((response) => response.status)).toEqual([200, 200]);
    await Promise.all(answers.map((response) => layer.bytes(response)));
    expect(source.renewals).toBe(1);
    expect(bearerSeen).toEqual(["old", "old", "new-1", "new-1"]);
  });
});

describe("the vendors' HTTP layer", () => {
  it("counts a call that outlasts its time-out as retryable", async () => {
    const error = await layer.send(context(150), purpose(), new URL(`${origin}/silent`)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error).toMatchObject({ retryable: true, message: "SharePoint did not answer within 1 s" });
  });

  it("stops when the caller cancels, as an SDK's cancellation asks", async () => {
    const cancel = new AbortController();
    const pending = layer.send(context(), purpose(), new URL(`${origin}/silent`), { signal: cancel.signal }).catch((failure: unknown) => failure);
    cancel.abort();
    expect(await pending).toMatchObject({ retryable: true, message: expect.stringContaining("did not answer") });
  });

  it("refuses an answer larger than the bound, permanently", async () => {
    const response = await layer.send(context(), purpose(), new URL(`${origin}/huge`));
    await expect(layer.json(response)).rejects.toMatchObject({ retryable: false, message: "SharePoint sent an answer larger than 1048576 bytes" });
  });

  it("reads an answer within the bound through its schema", async () => {
    const response = await layer.send(context(), purpose(), new URL(`${origin}/small`));
    expect(await layer.answer(response, item, "reading the file")).toEqual({ id: "01A", name: "Notice.pdf" });
  });

  it("fails clearly and permanently when the answer lacks a field its schema needs", async () => {
    const response = await layer.send(context(), purpose(), new URL(`${origin}/small`));
    const error = await layer.answer(response, item.extend({ webUrl: z.string() }), "the upload").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error).toMatchObject({ retryable: false, message: "SharePoint answered the upload in an unexpected shape: webUrl: Required" });
  });

  it("never calls a host outside the purpose", async () => {
    const error = await layer.send(context(), purpose(), new URL("https://attacker.example/steal")).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining("attacker.example") });
  });

  it("turns refusals into the vendor's words: throttling waits as asked, outages retry, the rest is permanent", async () => {
    const ctx = context();
    const throttled = await layer.refusal(ctx, await layer.send(ctx, purpose(), new URL(`${origin}/throttled`)), "the upload");
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 7_000, message: "SharePoint is throttling the upload: Slow down" });
    const down = await layer.refusal(ctx, await layer.send(ctx, purpose(), new URL(`${origin}/down`)), "the upload");
    expect(down).toMatchObject({ retryable: true, message: "SharePoint failed the upload: HTTP 503 (HTTP 503)" });
    const denied = await layer.refusal(ctx, await layer.send(ctx, purpose(), new URL(`${origin}/denied`)), "the upload");
    expect(denied).toMatchObject({ retryable: false, message: "SharePoint refused the upload: Access denied" });
  });

  it("sends on one kept-alive connection when asked, as Windows sign-in needs", async () => {
    const ctx = context();
    const connection = ctx.guard.connection(new URL(origin), purpose());
    try {
      sockets.length = 0;
      for (let i = 0; i < 3; i++) await layer.send(ctx, purpose(), new URL(`${origin}/socket`), { via: connection });
      expect(sockets).toHaveLength(3);
      expect(new Set(sockets).size).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("gives an SDK a fetch whose answers come whole and whose calls pass the guard", async () => {
    const fetch = layer.fetchFor(context(), purpose());
    const response = await fetch(`${origin}/small`);
    expect(await response.json()).toEqual({ id: "01A", name: "Notice.pdf" });
    await expect(fetch("https://attacker.example/steal")).rejects.toMatchObject({ retryable: false });
    await expect(fetch(`${origin}/huge`)).rejects.toMatchObject({ message: expect.stringContaining("larger than") });
  });
});
