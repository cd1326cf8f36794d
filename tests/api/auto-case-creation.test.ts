import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// nef-folded-subject.eml: N.D. Cal. (cand), 3:24-cv-00456, recipients at shiplaw.test and
// workerslaw.test — a case the firm does not have.
const raw = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml"));

describe.each(backends)("auto case creation (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let client: ReturnType<typeof api>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    ids.tk1 = (await client.post("/api/v1/timekeeper", { full_name: "Rule Keeper", email: "rule.keeper@lawfirm.test" })).body.id;
    ids.tk2 = (await client.post("/api/v1/timekeeper", { full_name: "Later Keeper", email: "later.keeper@lawfirm.test" })).body.id;
    const firmClient = (await client.post("/api/v1/client", { name: "Shipping Co", unique_key: "C-SHIP" })).body;
    ids.matter = (await client.post("/api/v1/matter", { name: "Shipping general", unique_key: "M-SHIP", client_id: firmClient.id })).body.id;
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const processed = async (id: string) => {
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const item = await running.ctx.database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      if (!["New", "Started", "Retry", "Post Processing"].includes(item.status)) return item;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the item was not processed");
  };
  /** Uploads the notice; `copy` gives it a Message-ID of its own, as a second e-mail would have. */
  const upload = async (copy = "") => {
    const body = copy ? Buffer.from(raw.toString("latin1").replace(/^Message-ID:\s*<([^>]+)>/im, `Message-ID: <${copy}-$1>`), "latin1") : raw;
    const res = await client.request("POST", "/api/v1/inbox/upload", { body: new Uint8Array(body), headers: { "content-type": "message/rfc822" } });
    expect(res.status).toBe(201);
    return processed(res.body.id);
  };

  it("validates rules: domains must be domains, and a timekeeper or a domain is required", async () => {
    const bad = await client.post("/api/v1/auto-case-creation", { name: "Nothing", matter_id: ids.matter });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.party_email_domains).toEqual(["Either a timekeeper or a party email domain is required"]);
    const badDomain = await client.post("/api/v1/auto-case-creation", { name: "Bad", party_email_domains: ["not a domain"] });
    expect(badDomain.status).toBe(400);
  });

  it("leaves a notice without a matching rule in Action Required", async () => {
    const court = await client.post("/api/v1/jurisdiction", { name: "N.D. Cal.", ecfx_jurisdictions: ["cand"] });
    expect(court.status).toBe(201);
    ids.jurisdiction = court.body.id;
    const other = await client.post("/api/v1/auto-case-creation", { name: "Elsewhere", party_email_domains: ["elsewhere.test"], timekeepers: [ids.tk1] });
    expect(other.status).toBe(201);
    const item = await upload();
    expect(item.status).toBe("Action Required");
    expect(item.case_id).toBeNull();
    ids.waiting = item.id;
  });

  it("creates the case from the rule whose party domain is among the recipients, with the rule's matter and timekeepers", async () => {
    const rule = await client.post("/api/v1/auto-case-creation", {
      name: "Shipping law",
      party_email_domains: ["shiplaw.test"],
      matter_id: ids.matter,
      timekeepers: [ids.tk1],
      assignment_maintenance: "ADD_NEW",
    });
    expect(rule.status).toBe(201);
    ids.rule = rule.body.id;
    // Retrying the waiting notice now finds the rule.
    expect((await client.post("/api/v1/inbox/bulk", { action: "retry", ids: [ids.waiting] })).body.done).toEqual([ids.waiting]);
    const item = await processed(ids.waiting!);
    expect(item.disposition).toBe("Processed");
    ids.case = item.case_id!;
    const created = (await client.get(`/api/v1/case/${item.case_id}`)).body;
    expect(created).toMatchObject({ matter_id: ids.matter, jurisdiction_id: ids.jurisdiction, assigned_timekeepers: [ids.tk1] });
    expect(created.case_number).toMatch(/3:24-cv-00?456/);
    const events = await running.ctx.database.db.selectFrom("event_log").select(["event", "detail"]).where("inbox_item_id", "=", item.id).execute();
    expect(events.find((e) => e.event === "case created automatically")?.detail).toContain("Shipping law");
    // The case is found by the table's free text like any other.
    const found = await client.get("/api/v1/case/search?freeText=00456");
    expect(found.body.map((c: { id: string }) => c.id)).toContain(item.case_id);
  });

  it("keeps a created case's assignments up with an ADD NEW rule, and never creates the case twice", async () => {
    expect((await client.request("PATCH", `/api/v1/auto-case-creation/${ids.rule}`, { json: { timekeepers: [ids.tk1, ids.tk2] } })).status).toBe(200);
    const item = await upload("second");
    expect(item.case_id).toBe(ids.case);
    const cases = await running.ctx.database.db.selectFrom("court_case").select("id").where("auto_case_creation_id", "=", ids.rule!).execute();
    expect(cases).toHaveLength(1);
    const assigned = (await client.get(`/api/v1/case/${cases[0]!.id}`)).body.assigned_timekeepers;
    expect([...assigned].sort()).toEqual([ids.tk1, ids.tk2].sort());
    expect(item.status).not.toBe("Action Required");
  });
});
