import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { sendDemoNotices } from "../../server/seed/send-demo-notices";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/jobs/worker";
import { PIPELINE_JOBS } from "../../server/pipeline/job-handlers";
import { type RunningApi, startApi } from "./harness";

describe("the demo on a fresh start", () => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let close: () => Promise<void>;

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend: "sqlite", env: { ECFX_DEMO_DATA: "true", ECFX_COURT_BASE_URL: simulator.url } });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    const port = await listen(smtp, 0, "127.0.0.1");
    close = () => new Promise((resolve) => smtp.close(() => resolve()));
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    await sendDemoNotices(port);
    await worker.drain();
  });

  afterAll(async () => {
    await worker?.stop();
    await close?.();
    await running?.close();
    await simulator?.close();
  });

  it("shows a living inbox: filed notices with stored documents, and the cases a person must look at", async () => {
    const db = running.ctx.database.db;
    const items = await db.selectFrom("inbox_item").select(["status", "disposition", "reason", "duplicate_of_id"]).execute();
    expect(items.length).toBeGreaterThanOrEqual(25);
    const processed = items.filter((i) => i.status === "Succeeded" && i.disposition === "Processed");
    expect(processed.length).toBeGreaterThanOrEqual(18);
    expect(items.filter((i) => i.status === "Action Required").map((i) => i.reason)).toEqual(
      expect.arrayContaining([expect.stringContaining("Case not found"), expect.stringContaining("ilnd")]),
    );
    expect(items.some((i) => i.disposition === "Ignored" && i.duplicate_of_id)).toBe(true);
    const docs = await db.selectFrom("document").select(["fetch_status"]).execute();
    expect(docs.filter((d) => d.fetch_status === "fetched").length).toBeGreaterThanOrEqual(18);
    expect(docs.some((d) => d.fetch_status === "restricted")).toBe(true);
  });
});
