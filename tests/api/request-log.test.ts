import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { api, useApi } from "./harness";

// At the default level the API writes one line per request: method, route, status and time,
// never the query string (it may carry a token).

function logCapture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  const lines = () =>
    text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

const INFO = 30;

describe("request log", () => {
  const log = logCapture();
  const server = useApi({ backend: "sqlite", env: { LOG_LEVEL: "info" }, logStream: log.stream });

  it("writes one info line per request, without its query string", async () => {
    const before = log.lines().length;
    const client = api(server().url);
    expect((await client.get("/api/v1/health")).status).toBeLessThan(500);
    expect((await client.get("/api/v1/client/search?token=secret&max=5")).status).toBe(401);
    expect((await client.get("/no/such/path?token=secret")).status).toBe(404);
    // The reply is logged once it has gone out: wait for the third line rather than a time.
    await expect.poll(() => log.lines().length - before).toBe(3);

    const written = log.lines().slice(before);
    expect(written.every((line) => line.level === INFO)).toBe(true);
    expect(written.map((line) => [line.method, line.route, line.status])).toEqual([
      ["GET", "/api/v1/health", expect.any(Number)],
      ["GET", "/api/v1/:resource/search", 401],
      ["GET", "/no/such/path", 404],
    ]);
    for (const line of written) expect(line.ms).toEqual(expect.any(Number));
    expect(JSON.stringify(written)).not.toContain("secret");
    expect(JSON.stringify(log.lines())).not.toContain("secret");
  });
});
