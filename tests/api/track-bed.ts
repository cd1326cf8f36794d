import { expect } from "vitest";
import { type CourtSimulator, type PublishedEntry, startCourtSimulator } from "../../server/courts/simulator";
import { setEntitledFeatures } from "../../server/firm/entitled-features";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type Backend, type RunningApi, type TestClock, DEMO, api, sessionsOf, startApi } from "./harness";

// What the ECFX Track tests share: a court simulator, an API with a worker on the test's clock
// (feeds polled every five minutes), the demo firm entitled to ECFX Track, and one case of the
// simulated court whose entries the tests publish.

const MINUTE = 60_000;
export const TRACK_COURT = "nysd";
export const TRACKED_NUMBER = "1:18-cv-03365";

export interface TrackBed {
  running: RunningApi;
  simulator: CourtSimulator;
  admin: ReturnType<typeof api>;
  sessionOf: ReturnType<typeof sessionsOf>;
  firmId: number;
  caseId: string;
  /** The court dockets an entry of the tracked case (or of another case) now. */
  docket(shortDescription: string, docketNumber?: string): PublishedEntry;
  /** Lets the clock run `minutes` and the worker do whatever is due by then. */
  later(minutes: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTrackBed(backend: Backend, clock: TestClock): Promise<TrackBed> {
  const simulator = await startCourtSimulator();
  const running = await startApi({
    backend,
    clock,
    env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_TRACK_POLL_MINUTES: "5", ECFX_ACCESS_TOKEN_TTL: "86400" },
  });
  const worker: Worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
  const sessionOf = sessionsOf(() => running, clock);
  const admin = api(running.url, (await sessionOf(DEMO.admin)).access_token);
  const firmId: number = (await admin.get("/api/v1/firm")).body.id;
  await setEntitledFeatures(running.ctx.database, firmId, ["ECFX_TRACK"], clock.now());
  const client = (await admin.post("/api/v1/client", { name: "Chau", unique_key: "C-CHAU" })).body.id;
  const matter = (await admin.post("/api/v1/matter", { name: "Chau matter", unique_key: "M-CHAU", client_id: client })).body.id;
  const jurisdiction = (await admin.post("/api/v1/jurisdiction", { name: "S.D.N.Y.", ecfx_jurisdictions: [TRACK_COURT] })).body.id;
  const keeper = (await admin.post("/api/v1/timekeeper", { full_name: "Tracy Keeper", email: "tracy.keeper@lawfirm.test" })).body.id;
  const created = await admin.post("/api/v1/case", {
    name: "Chau v. Donovan",
    case_number: TRACKED_NUMBER,
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [keeper],
  });
  expect(created.status, created.text).toBe(201);

  let sequence = 10;
  return {
    running,
    simulator,
    admin,
    sessionOf,
    firmId,
    caseId: created.body.id,
    docket(shortDescription, docketNumber = TRACKED_NUMBER) {
      sequence += 1;
      const entry = {
        docketNumber,
        caseName: "Chau v. Donovan et al",
        shortDescription,
        documentNumber: String(sequence),
        documentId: `1271222643${sequence}`,
        pacerCaseId: "492165",
        sequence: String(sequence),
        publishedAt: clock.now(),
      };
      simulator.publishEntry(TRACK_COURT, entry);
      return entry;
    },
    async later(minutes) {
      clock.advance(minutes * MINUTE);
      for (let i = 0; i < 50; i++) {
        await worker.drain();
        const due = await running.ctx.database.db.selectFrom("job").select("id").where("run_at", "<=", clock.now()).executeTakeFirst();
        if (!due) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the worker did not settle");
    },
    async close() {
      await worker.stop();
      await running.close();
      await simulator.close();
    },
  };
}
