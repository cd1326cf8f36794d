import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DmsTargetError } from "../../server/dms/dms-target";
import { boundedJson, guardedFetch, hostsPurpose } from "../../server/dms/guarded-call";
import { OutboundGuard } from "../../server/outbound/guard";

// The wire rules both SharePoint clients share: a call that outlasts its time-out is retryable,
// an answer past the bound is refused, a host outside the purpose is never called.

let server: http.Server;
let origin: string;
const guard = () => new OutboundGuard({ allowedOrigins: [origin] });
const guards: OutboundGuard[] = [];
const options = (timeoutMs = 5_000) => {
  const g = guard();
  guards.push(g);
  return { guard: g, purpose: hostsPurpose("SharePoint test", ["contoso.sharepoint.com"]), timeoutMs, kind: "share_point_cloud_credential" };
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/silent") return; // never answers
    if (req.url === "/huge") {
      // Chunked, without a length: the bound must hold while reading.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`[${"0,".repeat(3 * 1024 * 1024)}`);
      res.end("0]");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(guards.map((g) => g.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("SharePoint calls", () => {
  it("counts a call that outlasts its time-out as retryable", async () => {
    const error = await guardedFetch(options(150), new URL(`${origin}/silent`)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining("did not answer") });
  });

  it("refuses an answer larger than the bound", async () => {
    const response = await guardedFetch(options(), new URL(`${origin}/huge`));
    await expect(boundedJson(response, "share_point_cloud_credential")).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining("larger than"),
    });
  });

  it("reads an answer within the bound", async () => {
    const response = await guardedFetch(options(), new URL(`${origin}/small`));
    expect(await boundedJson(response, "share_point_cloud_credential")).toEqual({ ok: true });
  });

  it("never calls a host outside the purpose", async () => {
    const error = await guardedFetch(options(), new URL("https://attacker.example/steal")).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining("attacker.example") });
  });
});
