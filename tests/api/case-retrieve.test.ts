import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// Case retrieve (spec §4, §6): only on an installation that turns it on (ECFX_CASE_RETRIEVE, a
// development machine's; never a header the caller sends), only for a case whose
// court is connected. "Update case" reads the court's docket for the case; when that fails, the
// user may retrieve the available documents anyway.

describe.each(backends)("case retrieve (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let admin: ReturnType<typeof api>;
  const ids = { connected: "", unconnected: "" };

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_CASE_RETRIEVE: "true" } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const keeper = (await admin.post("/api/v1/timekeeper", { full_name: "Rhea Trieve", email: "rhea@lawfirm.test" })).body.id;
    const client = (await admin.post("/api/v1/client", { name: "Torres", unique_key: "C-TOR" })).body.id;
    const matter = (await admin.post("/api/v1/matter", { name: "Torres matter", unique_key: "M-TOR", client_id: client })).body.id;
    const federal = (await admin.post("/api/v1/jurisdiction", { name: "S.D.N.Y. retrieve", ecfx_jurisdictions: ["nysd"] })).body.id;
    const state = (await admin.post("/api/v1/jurisdiction", { name: "Texas state", ecfx_jurisdictions: ["state-tx"] })).body.id;
    const newCase = async (number: string, jurisdiction: string) =>
      (
        await admin.post("/api/v1/case", {
          name: `Case ${number}`,
          case_number: number,
          matter_id: matter,
          jurisdiction_id: jurisdiction,
          assigned_timekeepers: [keeper],
        })
      ).body.id as string;
    ids.connected = await newCase("1:17-cv-09141", federal);
    ids.unconnected = await newCase("2024-CI-00123", state);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const retrieve = (caseId: string, mode?: string) => admin.request("POST", `/api/v1/case/${caseId}/retrieve`, { json: mode ? { mode } : {} });

  /** The retrieve's status once its job and the items it received are done. */
  const settled = async (caseId: string) => {
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const busy = await running.ctx.database.db
        .selectFrom("inbox_item")
        .select("id")
        .where("status", "in", ["New", "Started", "Retry", "Post Processing"])
        .executeTakeFirst();
      const view = (await admin.get(`/api/v1/case/${caseId}/retrieve`)).body;
      if (!busy && !["Updating", "Retrieve In Progress"].includes(view.status)) return view;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the retrieve did not settle");
  };

  it("is off unless the installation turns it on, whatever host the caller names", async () => {
    const plain = await startApi({ backend });
    try {
      const caller = api(plain.url, (await login(plain.url, DEMO.admin)).access_token);
      const forged: Record<string, string>[] = [
        {},
        { host: "dev.ecfx.com" },
        { host: "localhost:3000" },
        { "x-forwarded-host": "team-dev.ecfx.com" },
        { "x-forwarded-host": "127.0.0.1" },
      ];
      for (const headers of forged) {
        for (const res of [
          await caller.get(`/api/v1/case/${ids.connected}/retrieve`, headers),
          await caller.request("POST", `/api/v1/case/${ids.connected}/retrieve`, { json: {}, headers }),
        ]) {
          expect([headers, res.status]).toEqual([headers, 403]);
          expect(res.body.message).toBe("Case retrieve is not turned on for this installation.");
        }
      }
    } finally {
      await plain.close();
    }
    // With ECFX_CASE_RETRIEVE, whatever host the caller names.
    for (const headers of [{}, { host: "console.ecfx.com" }] as Record<string, string>[]) {
      const res = await admin.get(`/api/v1/case/${ids.connected}/retrieve`, headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "None", court_id: "nysd", court_connected: true, can_change: true });
    }
  });

  it("refuses a case whose court is not connected, and another firm's case", async () => {
    expect((await admin.get(`/api/v1/case/${ids.unconnected}/retrieve`)).body).toMatchObject({ court_connected: false, status: "None" });
    const res = await retrieve(ids.unconnected);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("The case's court is not connected: its jurisdiction is mapped to no federal court.");
    const second = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
    expect((await second.request("POST", `/api/v1/case/${ids.connected}/retrieve`, { json: {} })).status).toBe(404);
  });

  it("updates the case from its court's docket: new entries become items filed on the case", async () => {
    simulator.publishEntry("nysd", {
      docketNumber: "1:17-cv-09141",
      caseName: "Torres v. Bronx Lebanon Hospital Center et al",
      shortDescription: "Letter",
      documentNumber: "16",
      documentId: "127122264352",
      pacerCaseId: "484286",
      sequence: "72",
      publishedAt: Date.now() - 86_400_000,
    });
    const started = await retrieve(ids.connected, "update");
    expect(started.status).toBe(202);
    expect(started.body.status).toBe("Updating");
    expect(await settled(ids.connected)).toMatchObject({ status: "Update Succeeded", reason: "" });
    const items = await running.ctx.database.db.selectFrom("inbox_item").select(["case_id", "source", "status"]).where("source", "=", "RETRIEVE").execute();
    expect(items).toEqual([{ case_id: ids.connected, source: "RETRIEVE", status: "Succeeded" }]);
    // Updating again finds nothing new.
    await retrieve(ids.connected, "update");
    expect(await settled(ids.connected)).toMatchObject({ status: "Update Succeeded" });
    expect(await running.ctx.database.db.selectFrom("inbox_item").select("id").where("source", "=", "RETRIEVE").execute()).toHaveLength(1);
  });

  it("says when the update failed, and retrieves the available documents anyway", async () => {
    const db = running.ctx.database.db;
    simulator.failFeed("nysd", true);
    await retrieve(ids.connected, "update");
    const failed = await settled(ids.connected);
    expect(failed.status).toBe("Update Failed");
    expect(failed.reason).toContain("The docket feed of court nysd could not be read (status 500).");
    simulator.failFeed("nysd", false);

    // A document of the case whose fetch had failed is fetched again.
    await db.updateTable("document").set({ fetch_status: "failed", fetch_error: "court busy", file_id: null }).execute();
    const started = await retrieve(ids.connected, "documents");
    expect(started.body.status).toBe("Retrieve In Progress");
    expect(await settled(ids.connected)).toMatchObject({ status: "Retrieve Succeeded" });
    expect(await db.selectFrom("document").select(["fetch_status", "name"]).execute()).toEqual([{ fetch_status: "fetched", name: "Letter" }]);

    // The court refusing the document again: the retrieve failed, and says how many.
    await db.updateTable("document").set({ fetch_status: "failed", url: "https://ecf.nysd.uscourts.gov/doc1/127122264500" }).execute();
    await retrieve(ids.connected, "documents");
    expect(await settled(ids.connected)).toMatchObject({ status: "Retrieve Failed", reason: "1 document could not be fetched." });
  });

  it("lets a reader see the status but not retrieve", async () => {
    const viewer = api(running.url, (await login(running.url, DEMO.viewOnly)).access_token);
    expect((await viewer.get(`/api/v1/case/${ids.connected}/retrieve`)).body).toMatchObject({ can_change: false });
    expect((await viewer.request("POST", `/api/v1/case/${ids.connected}/retrieve`, { json: {} })).status).toBe(403);
  });
});
