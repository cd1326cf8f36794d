// A Supreme Court docket notification through the real pipeline: matched to the firm's case in a
// jurisdiction mapped to the Supreme Court, its entry recorded, and the opinion it links fetched
// from the court simulator through the outbound guard.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Worker, startWorker } from "../../server/jobs/worker";
import { PIPELINE_JOBS } from "../../server/pipeline/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/scotus", name));

describe.each(backends)("Supreme Court notices (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let client: ReturnType<typeof api>;
  let caseId = "";

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    const admin = await login(running.url, DEMO.admin);
    client = api(running.url, admin.access_token);
    const firmClient = (await client.post("/api/v1/client", { name: "Andre Balazs Properties", unique_key: "C-SCOTUS" })).body;
    const matter = (await client.post("/api/v1/matter", { name: "Jules v. Balazs", unique_key: "M-SCOTUS", client_id: firmClient.id })).body;
    const jurisdiction = (await client.post("/api/v1/jurisdiction", { name: "U.S. Supreme Court", ecfx_jurisdictions: ["scotus"] })).body;
    const timekeeper = (await client.post("/api/v1/timekeeper", { full_name: "Ruth Okafor", email: "rokafor@firm.test" })).body;
    const created = await client.post("/api/v1/case", {
      name: "Jules v. Andre Balazs Properties",
      case_number: "25-83",
      matter_id: matter.id,
      jurisdiction_id: jurisdiction.id,
      assigned_timekeepers: [timekeeper.id],
    });
    expect(created.status, JSON.stringify([jurisdiction, created.body])).toBe(201);
    caseId = created.body.id;
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const item = (id: string) => running.ctx.database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  const upload = async (raw: Buffer): Promise<string> => {
    const response = await client.request("POST", "/api/v1/inbox/upload", { body: new Uint8Array(raw), headers: { "content-type": "message/rfc822" } });
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const pending = await running.ctx.database.db.selectFrom("job").select("id").where("run_at", "<=", Date.now()).execute();
      if (!["New", "Started", "Post Processing"].includes((await item(id)).status) && pending.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return id;
  };

  it("files the docket entry on the firm's Supreme Court case and fetches the opinion it links", async () => {
    const id = await upload(fixture("25-83.eml"));
    expect(await item(id)).toMatchObject({ case_id: caseId, disposition: "Processed", status: "Succeeded" });
    const db = running.ctx.database.db;
    const envelope = await db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", id).executeTakeFirstOrThrow();
    expect(envelope).toMatchObject({
      case_id: caseId,
      ecfx_jurisdiction_id: "scotus",
      docket_text: "Adjudged to be AFFIRMED. Sotomayor, J., delivered the opinion for a unanimous Court.",
      date: "2026-05-14",
    });
    const documents = await db.selectFrom("document").selectAll().where("envelope_id", "=", envelope.id).execute();
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ url: "https://www.supremecourt.gov/opinions/25pdf/25-83_3e04.pdf", fetch_status: "fetched", name: "Opinion" });
    expect(documents[0]?.file_id).toBeTruthy();
    expect(simulator.requests.get("/opinions/25pdf/25-83_3e04.pdf")).toBe(1);
  });
});
