import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../app/common/logger";
import { apiRequest } from "../../app/utils/api.server";
import { requestLogger } from "../../server/console-host/request-log";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { logCapture } from "../log-capture";
import { DEMO, type RunningApi, api, login, startApi } from "./harness";

// An operator follows a request from the console to the API by its id: the console's call to the
// API carries the id of the page request that made it, and the API logs it. The pipeline says at
// info what each stage of a notice did. (Its own process: the console reads its settings once.)

describe("request ids and pipeline stages in the log", () => {
  const apiLog = logCapture();
  const consoleLog = logCapture();
  const workerLog = logCapture();
  let running: RunningApi;
  let consoleServer: ReturnType<ReturnType<typeof express>["listen"]>;
  let consoleUrl = "";

  beforeAll(async () => {
    running = await startApi({ backend: "sqlite", env: { LOG_LEVEL: "info" }, logStream: apiLog.stream });
    process.env.ECFX_API_URL = running.url;
    process.env.ECFX_SESSION_SECRET = "a-session-secret-for-this-test-only";
    // The console's request log and its API client, around a page that asks the API.
    const app = express();
    app.use(requestLogger(createLogger({ level: "info", stream: consoleLog.stream })));
    app.get("/status", async (_req, res) => {
      const answer = await apiRequest("/api/v1/health");
      res.status(answer.status).send("ok");
    });
    consoleServer = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => consoleServer.once("listening", resolve));
    consoleUrl = `http://127.0.0.1:${(consoleServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => consoleServer?.close(resolve));
    await running?.close();
  });

  it("logs the console's call to the API under the id of the console request that made it", async () => {
    const page = await fetch(`${consoleUrl}/status`);
    expect(page.status).toBeLessThan(500);
    const reqId = page.headers.get("x-request-id");
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => consoleLog.lines().filter((l) => l.msg === "request").length).toBe(1);
    expect(consoleLog.lines().find((l) => l.msg === "request")).toMatchObject({ reqId, url: "/status", level: "info" });
    await expect
      .poll(() =>
        apiLog
          .lines()
          .filter((l) => l.msg === "request" && l.url === "/api/v1/health")
          .map((l) => l.reqId),
      )
      .toEqual([reqId]);
  });

  it("writes one info line per stage of a notice, with its item, firm, outcome and time", async () => {
    const worker: Worker = startWorker(running.ctx, PIPELINE_JOBS, 1, { log: createLogger({ level: "info", stream: workerLog.stream }) });
    try {
      const admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
      const firmId = Number((await admin.get("/api/v1/firm")).body.id);
      const raw = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-html-windows-1252.eml"));
      const itemId = await receiveMessage(running.ctx, { firmId, raw, source: "SMTP", sender: "ecf@paed.uscourts.gov" });
      await worker.drain();
      const stages = workerLog.lines().filter((l) => l.itemId === itemId);
      // No case of the firm has this docket: parsed, then before a person.
      expect(stages.map((l) => [l.level, l.msg, l.stage, l.firmId, l.outcome])).toEqual([["info", "stage", "process-inbox-item", firmId, "Action Required"]]);
      expect(stages[0]).toMatchObject({ component: "worker", ref: itemId, attempt: expect.any(Number), ms: expect.any(Number) });
    } finally {
      await worker.stop();
    }
  });
});
