import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../app/common/logger";
import { logCapture } from "../../tests/log-capture";
import { requestLogger } from "./request-log";

// The console writes its request log as the API does: one info line per request with the path as
// asked (secrets of its query hidden) and the request's id; static files and the route manifest at debug.

function serve(level: "info" | "debug") {
  const log = logCapture();
  const app = express();
  app.use(requestLogger(createLogger({ level, stream: log.stream })));
  app.get("/cases", (_req, res) => void res.send("ok"));
  app.post("/login", (_req, res) => void res.status(303).end());
  app.get("/build/entry.client-X1.js", (_req, res) => void res.send("js"));
  app.get("/__manifest", (_req, res) => void res.json({}));
  app.get("/broken", (_req, res) => void res.status(500).end());
  return { app, log };
}

describe("console request log", () => {
  const servers: ReturnType<ReturnType<typeof express>["listen"]>[] = [];
  const bases: Record<string, { base: string; log: ReturnType<typeof logCapture> }> = {};

  beforeAll(async () => {
    for (const level of ["info", "debug"] as const) {
      const { app, log } = serve(level);
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      servers.push(server);
      bases[level] = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
    }
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  it("writes one line per request with method, path, status, time and id, its secrets hidden", async () => {
    const { base, log } = bases.info!;
    await fetch(`${base}/cases?page=2&token=secret`);
    await fetch(`${base}/login`, { method: "POST", redirect: "manual" });
    await fetch(`${base}/public/document/eyJ.secret.token`);
    await fetch(`${base}/broken`);
    await expect.poll(() => log.lines().length).toBe(4);
    expect(log.lines().map((l) => [l.level, l.method, l.url, l.status])).toEqual([
      ["info", "GET", "/cases?page=2&token=[redacted]", 200],
      ["info", "POST", "/login", 303],
      ["info", "GET", "/public/document/[redacted]", 404],
      ["error", "GET", "/broken", 500],
    ]);
    for (const line of log.lines()) {
      expect(line.ms).toEqual(expect.any(Number));
      expect(line.reqId).toEqual(expect.any(String));
      expect(new Date(String(line.time)).toISOString()).toBe(line.time);
    }
    expect(log.text()).not.toContain("secret");
  });

  it("keeps the id a proxy sent, answers with it, and makes one up for a malformed one", async () => {
    const { base, log } = bases.info!;
    const before = log.lines().length;
    const kept = await fetch(`${base}/cases`, { headers: { "x-request-id": "proxy-7f3a" } });
    const made = await fetch(`${base}/cases`, { headers: { "x-request-id": "bad id\u00e9" } });
    expect(kept.headers.get("x-request-id")).toBe("proxy-7f3a");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => log.lines().length).toBe(before + 2);
    expect(
      log
        .lines()
        .slice(before)
        .map((l) => l.reqId),
    ).toEqual(["proxy-7f3a", made.headers.get("x-request-id")]);
  });

  it("writes static files and the route manifest at debug, and the start of a request at debug only", async () => {
    const info = bases.info!;
    const before = info.log.lines().length;
    await fetch(`${info.base}/build/entry.client-X1.js`);
    await fetch(`${info.base}/__manifest?paths=%2Fcases`);
    await fetch(`${info.base}/cases`);
    await expect.poll(() => info.log.lines().length).toBe(before + 1);
    expect(info.log.lines().at(-1)).toMatchObject({ url: "/cases", level: "info" });

    const debug = bases.debug!;
    await fetch(`${debug.base}/build/entry.client-X1.js`);
    await fetch(`${debug.base}/__manifest?paths=%2Fcases`);
    await expect.poll(() => debug.log.lines().filter((l) => l.msg === "request").length).toBe(2);
    expect(debug.log.lines().map((l) => [l.level, l.msg, l.url])).toEqual([
      ["debug", "request started", "/build/entry.client-X1.js"],
      ["debug", "request", "/build/entry.client-X1.js"],
      ["debug", "request started", "/__manifest?paths=%2Fcases"],
      ["debug", "request", "/__manifest?paths=%2Fcases"],
    ]);
  });
});
