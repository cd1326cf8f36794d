import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi, testClock } from "./harness";

// Document processing settings: the §5 wait rule, the provider secret kept from the browser, and
// the worker waiting for the court's stamp — a document fetched unstamped is fetched again by a
// delayed job, kept once stamped, or released unstamped when the firm's minutes are up. The clock
// is the test's: nothing here waits for real minutes.

// nef-folded-subject.eml: N.D. Cal. (cand), 3:24-cv-00456, one document, 035123456789; each
// upload gives it a document number of its own, so none is taken for a duplicate of the last.
const raw = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml"), "latin1");
const MINUTE = 60_000;
let serial = 10;

describe.each(backends)("document processing (%s)", (backend) => {
  const clock = testClock();
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let a: ReturnType<typeof api>;
  const PATH = "/api/v1/document-processing";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, clock, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 1);
    a = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const court = (await a.post("/api/v1/jurisdiction", { name: "Stamp N.D. Cal.", ecfx_jurisdictions: ["cand"] })).body.id;
    const keeper = (await a.post("/api/v1/timekeeper", { full_name: "Stamp Keeper", email: "stamp.keeper@lawfirm.test" })).body.id;
    const client = (await a.post("/api/v1/client", { name: "Stamp Client", unique_key: "C-STAMP" })).body.id;
    const matter = (await a.post("/api/v1/matter", { name: "Stamp Matter", unique_key: "M-STAMP", client_id: client })).body.id;
    const kase = await a.post("/api/v1/case", {
      name: "Martínez v. Pacific Co",
      case_number: "3:24-cv-00456",
      matter_id: matter,
      jurisdiction_id: court,
      assigned_timekeepers: [keeper],
    });
    expect(kase.status, kase.text).toBe(201);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const db = () => running.ctx.database.db;

  it("says the §5 rule when the wait before an unstamped release is not below the max wait", async () => {
    const bad = await a.post(PATH, { name: "Too long", wait_for_stamp: true, max_minutes_wait_for_stamp: 10, minutes_wait_before_unstamped_release: 10 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.minutes_wait_before_unstamped_release).toEqual(["The wait value must be below max minutes wait for stamp"]);
    const good = await a.post(PATH, { name: "Short", wait_for_stamp: true, max_minutes_wait_for_stamp: 10, minutes_wait_before_unstamped_release: 5 });
    expect(good.status).toBe(201);
    // A change is checked against what is stored.
    const longer = await a.request("PATCH", `${PATH}/${good.body.id}`, { json: { minutes_wait_before_unstamped_release: 12 } });
    expect(longer.status).toBe(400);
    expect(longer.body.fieldErrors.minutes_wait_before_unstamped_release).toEqual(["The wait value must be below max minutes wait for stamp"]);
    expect((await a.post(PATH, { name: "Not minutes", max_minutes_wait_for_stamp: "soon" })).status).toBe(400);
  });

  it("never answers the provider's client secret: it says it is set, and keeps it when sent back as shown", async () => {
    const created = await a.post(PATH, { name: "With provider", extraction_client_id: "client-1", extraction_client_secret: "top-secret-value" });
    expect(created.status).toBe(201);
    expect(created.body.extraction_client_secret).toBe("********");
    const id = created.body.id as string;
    expect((await a.get(`${PATH}/${id}`)).body.extraction_client_secret).toBe("********");
    const listed = await a.get(`${PATH}/search?max=100`);
    expect(listed.text).not.toContain("top-secret-value");
    expect((await a.request("PATCH", `${PATH}/${id}`, { json: { name: "With provider (renamed)", extraction_client_secret: "********" } })).status).toBe(200);
    const stored = await db().selectFrom("document_processing").select("extraction_client_secret").where("id", "=", id).executeTakeFirstOrThrow();
    // Sealed at rest: never the typed value, and it opens to it.
    expect(stored.extraction_client_secret).not.toContain("top-secret-value");
    expect(running.ctx.secretBox.open(stored.extraction_client_secret!)).toBe("top-secret-value");
    const audit = await db().selectFrom("event_log").select("detail").where("level", "=", "AUDIT").execute();
    expect(audit.map((e) => e.detail).join("\n")).not.toContain("top-secret-value");
  });

  /** Sets the one preference (every court) to these settings, then uploads the notice with a new document served unstamped `unstamped` times. */
  const uploadWith = async (copy: string, settings: Record<string, unknown>, unstamped: number) => {
    const setting = await a.post(PATH, { name: `Stamp ${copy}`, ...settings });
    expect(setting.status, setting.text).toBe(201);
    if (ids.preference) await a.request("PATCH", `/api/v1/jurisdiction-preference/${ids.preference}`, { json: { document_processing_id: setting.body.id } });
    else
      ids.preference = (
        await a.post("/api/v1/jurisdiction-preference", { name: "Every court", enabled: true, document_processing_id: setting.body.id })
      ).body.id;
    const document = `0351234560${++serial}`;
    simulator.serveUnstamped(document, unstamped);
    const text = raw.replace(/^Message-ID:\s*<([^>]+)>/im, `Message-ID: <${copy}-$1>`).replace("035123456789", document);
    const res = await a.request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(Buffer.from(text, "latin1")),
      headers: { "content-type": "message/rfc822" },
    });
    expect(res.status).toBe(201);
    return { item: res.body.id as string, fetches: () => simulator.requests.get(`/doc1/${document}`) ?? 0 };
  };
  const stateOf = async (itemId: string) => {
    await worker.drain();
    const item = await db().selectFrom("inbox_item").select(["status", "jurisdiction_preference_id"]).where("id", "=", itemId).executeTakeFirstOrThrow();
    expect(item.jurisdiction_preference_id).toBe(ids.preference);
    const doc = await db()
      .selectFrom("document")
      .select(["fetch_status", "stamped_by_court", "file_id"])
      .where("processed_from_id", "=", itemId)
      .executeTakeFirstOrThrow();
    return { status: item.status, fetch: doc.fetch_status, stamped: Boolean(doc.stamped_by_court), stored: Boolean(doc.file_id) };
  };

  it("fetches an unstamped document again later, and keeps it once the court has stamped it", async () => {
    const { item, fetches } = await uploadWith("stamped-later", { wait_for_stamp: true, max_minutes_wait_for_stamp: 30 }, 2);
    expect(await stateOf(item)).toEqual({ status: "Post Processing", fetch: "pending", stamped: false, stored: false });
    expect(fetches()).toBe(1);
    // Nothing is due before the minute: a drain fetches nothing.
    expect(await stateOf(item)).toMatchObject({ fetch: "pending" });
    expect(fetches()).toBe(1);
    clock.advance(MINUTE);
    expect(await stateOf(item)).toMatchObject({ fetch: "pending" });
    expect(fetches()).toBe(2);
    clock.advance(MINUTE);
    expect(await stateOf(item)).toEqual({ status: "Succeeded", fetch: "fetched", stamped: true, stored: true });
    expect(fetches()).toBe(3);
  });

  it("releases the unstamped copy after the minutes set when release while waiting is on", async () => {
    const { item } = await uploadWith(
      "released-early",
      { wait_for_stamp: true, max_minutes_wait_for_stamp: 30, release_unstamped_while_waiting: true, minutes_wait_before_unstamped_release: 2 },
      1000,
    );
    expect(await stateOf(item)).toMatchObject({ fetch: "pending" });
    clock.advance(MINUTE);
    expect(await stateOf(item)).toMatchObject({ fetch: "pending" });
    clock.advance(MINUTE);
    expect(await stateOf(item)).toEqual({ status: "Succeeded", fetch: "fetched", stamped: false, stored: true });
  });

  it("releases it at the max minutes wait for stamp otherwise", async () => {
    const { item } = await uploadWith("released-at-max", { wait_for_stamp: true, max_minutes_wait_for_stamp: 3 }, 1000);
    expect(await stateOf(item)).toMatchObject({ fetch: "pending" });
    for (let minute = 1; minute < 3; minute++) {
      clock.advance(MINUTE);
      expect(await stateOf(item), `minute ${minute}`).toMatchObject({ fetch: "pending" });
    }
    clock.advance(MINUTE);
    expect(await stateOf(item)).toEqual({ status: "Succeeded", fetch: "fetched", stamped: false, stored: true });
  });

  it("keeps an unstamped copy at once when the applied settings do not wait for the stamp", async () => {
    const { item } = await uploadWith("no-wait", { wait_for_stamp: false }, 1);
    expect(await stateOf(item)).toEqual({ status: "Succeeded", fetch: "fetched", stamped: false, stored: true });
  });
});
