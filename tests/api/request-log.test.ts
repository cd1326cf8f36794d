import { describe, expect, it } from "vitest";
import { logCapture } from "../log-capture";
import { api, useApi } from "./harness";

// At the default level the API writes one line per request: method, the path as asked with the
// secrets of its query hidden, the route's pattern, status, time and the request's id.

describe("request log", () => {
  const log = logCapture();
  const server = useApi({ backend: "sqlite", env: { LOG_LEVEL: "info" }, logStream: log.stream });

  it("writes one info line per request, its query's secrets hidden", async () => {
    const requests = () => log.lines().filter((l) => l.msg === "request");
    const before = requests().length;
    const client = api(server().url);
    expect((await client.get("/api/v1/health")).status).toBeLessThan(500);
    expect((await client.get("/api/v1/client/search?token=secret&max=5")).status).toBe(401);
    expect((await client.get("/no/such/path?code=secret&state=secret2")).status).toBe(404);
    // The reply is logged once it has gone out: wait for the third line rather than a time.
    await expect.poll(() => requests().length - before).toBe(3);

    const written = requests().slice(before);
    expect(written.every((line) => line.level === "info" && line.component === "api")).toBe(true);
    expect(written.map((line) => [line.method, line.url, line.route, line.status])).toEqual([
      ["GET", "/api/v1/health", "/api/v1/health", expect.any(Number)],
      ["GET", "/api/v1/client/search?token=[redacted]&max=5", "/api/v1/:resource/search", 401],
      ["GET", "/no/such/path?code=[redacted]&state=[redacted]", undefined, 404],
    ]);
    for (const line of written) {
      expect(line.ms).toEqual(expect.any(Number));
      expect(line.reqId).toEqual(expect.any(String));
      expect(new Date(String(line.time)).toISOString()).toBe(line.time);
    }
    expect(log.text()).not.toContain("secret");
  });

  it("logs a request under the id it came with", async () => {
    const response = await fetch(`${server().url}/api/v1/health`, { headers: { "x-request-id": "console-4b1d" } });
    expect(response.status).toBeLessThan(500);
    await expect.poll(() => log.lines().some((l) => l.msg === "request" && l.reqId === "console-4b1d")).toBe(true);
  });
});
