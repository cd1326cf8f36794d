import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLogger } from "./request-log";

// The console writes its request log as the API does: one info line per request, no query string.

describe("console request log", () => {
  const written: string[] = [];
  const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base = "";

  beforeAll(async () => {
    const app = express();
    app.use(requestLogger("info", (line) => written.push(line)));
    app.get("/cases", (_req, res) => void res.send("ok"));
    app.post("/login", (_req, res) => void res.status(303).end());
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("writes one line per request with method, route, status and time, without its query", async () => {
    await fetch(`${base}/cases?page=2&token=secret`);
    await fetch(`${base}/login`, { method: "POST", redirect: "manual" });
    await fetch(`${base}/public/document/eyJ.secret.token`);
    await expect.poll(() => written.length).toBe(3);
    expect(lines().map((l) => [l.level, l.method, l.route, l.status])).toEqual([
      [30, "GET", "/cases", 200],
      [30, "POST", "/login", 303],
      [30, "GET", "/public/document/[redacted]", 404],
    ]);
    for (const line of lines()) expect(line.ms).toEqual(expect.any(Number));
    expect(written.join("")).not.toContain("secret");
  });

  it("writes the start of a request at debug only", () => {
    const debug: string[] = [];
    const quiet: string[] = [];
    const request = { method: "GET", originalUrl: "/cases?token=secret", ip: "127.0.0.1" };
    const response = { statusCode: 200, once: () => undefined };
    for (const [level, sink] of [
      ["debug", debug],
      ["info", quiet],
    ] as const) {
      requestLogger(level, (line) => sink.push(line))(request as never, response as never, () => undefined);
    }
    expect(debug.map((l) => JSON.parse(l).msg)).toEqual(["request started"]);
    expect(debug.join("")).not.toContain("secret");
    expect(quiet).toEqual([]);
  });
});
