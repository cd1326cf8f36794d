// Notices the federal path alone does not cover, through the real pipeline: a state e-filing
// provider's notification becomes an envelope on the firm's case in a state jurisdiction; a
// Supreme Court notification files its entry on the firm's Supreme Court case and its opinion is
// fetched through the outbound guard; a multidistrict notice files a member case in the district
// it names; a person's reply quoting a notice is linked to the notice received before and never
// processed again.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices", name));

describe.each(backends)("state e-filing, member cases and replies (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let client: ReturnType<typeof api>;
  const cases: Record<string, string> = {};

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    const admin = await login(running.url, DEMO.admin);
    client = api(running.url, admin.access_token);
    const firmClient = (await client.post("/api/v1/client", { name: "Avery Holdings", unique_key: "C-STATE" })).body;
    const matter = (await client.post("/api/v1/matter", { name: "Avery v. Pecan Valley", unique_key: "M-STATE", client_id: firmClient.id })).body;
    const timekeeper = (await client.post("/api/v1/timekeeper", { full_name: "Marisol Quintanilla", email: "mquintanilla@firm.test" })).body;
    for (const [key, name, ecfx, number] of [
      ["texas", "Bexar County District Courts", "state-tx", "2024-CI-18817"],
      ["california", "N.D. Cal.", "cand", "3:24-cv-5512"],
      ["supreme", "U.S. Supreme Court", "scotus", "25-83"],
    ] as const) {
      const jurisdiction = (await client.post("/api/v1/jurisdiction", { name, ecfx_jurisdictions: [ecfx] })).body;
      const created = await client.post("/api/v1/case", {
        name: `Case ${number}`,
        case_number: number,
        matter_id: matter.id,
        jurisdiction_id: jurisdiction.id,
        assigned_timekeepers: [timekeeper.id],
      });
      expect(created.status, JSON.stringify([jurisdiction, created.body])).toBe(201);
      cases[key] = created.body.id;
    }
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const upload = async (name: string): Promise<string> => {
    const response = await client.request("POST", "/api/v1/inbox/upload", {
      body: new Uint8Array(fixture(name)),
      headers: { "content-type": "message/rfc822" },
    });
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    // Until the worker has taken the item up and no job of it is left to run now.
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const pending = await running.ctx.database.db.selectFrom("job").select("id").where("run_at", "<=", Date.now()).execute();
      if (!["New", "Started"].includes((await item(id)).status) && pending.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return id;
  };
  const item = (id: string) => running.ctx.database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("files an eFileTexas notification of service on the firm's case in its Texas jurisdiction, as an envelope with filer, service contacts and documents", async () => {
    const id = await upload("tyler-efiletexas-service.eml");
    expect(await item(id)).toMatchObject({ case_id: cases.texas, disposition: "Processed" });
    const envelope = await running.ctx.database.db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", id).executeTakeFirstOrThrow();
    expect(envelope).toMatchObject({
      case_id: cases.texas,
      ecfx_jurisdiction_id: "state-tx",
      court_envelope_id: "93125567",
      filed_by: "Marisol Quintanilla",
      name: "Plaintiff's Motion to Compel Discovery Responses",
    });
    expect(JSON.parse(envelope.service_contacts)).toEqual([
      { name: "Theo Brandvold", email_addresses: ["tbrandvold@brandvold-law.test"] },
      { name: "Docketing Department", email_addresses: ["docketing@firm.test"] },
      { name: "Ines Castellanos", email_addresses: ["icastellanos@castellanos-pc.test"] },
    ]);
    const documents = await running.ctx.database.db.selectFrom("document").selectAll().where("envelope_id", "=", envelope.id).execute();
    expect(documents.map((d) => d.url)).toEqual(["https://efiletexas.gov/ViewDocuments.aspx?FID=5c3e2a10-8b7d-4c1e-9f00-a1b2c3d4e5f6"]);
  });

  it("files a Supreme Court notification on the firm's Supreme Court case and fetches the opinion it links from the court's host", async () => {
    const id = await upload("scotus/25-83.eml");
    expect(await item(id)).toMatchObject({ case_id: cases.supreme, disposition: "Processed", status: "Succeeded" });
    const db = running.ctx.database.db;
    const envelope = await db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", id).executeTakeFirstOrThrow();
    expect(envelope).toMatchObject({
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

  it("files the member case of a multidistrict notice in the district printed with its number", async () => {
    const id = await upload("nef-jpml-mdl-members.eml");
    const children = await running.ctx.database.db.selectFrom("inbox_item").selectAll().where("parent_id", "=", id).orderBy("docket_index").execute();
    expect(children).toHaveLength(3);
    expect(children[1]).toMatchObject({ docket_index: 1, case_id: cases.california });
    expect(children[0]?.status).toBe("Action Required");
  });

  it("links a reply quoting a notice to the notice it answers, received before, and does not process it", async () => {
    const original = await upload("nef-member-suffix-plain.eml");
    const reply = await upload("reply-quoting-notice.eml");
    expect(await item(reply)).toMatchObject({
      status: "Succeeded",
      disposition: "Ignored",
      duplicate_of_id: original,
      disposition_text: "A reply quoting a notice received before; linked to it.",
    });
    const envelopes = await running.ctx.database.db.selectFrom("envelope").select("id").where("inbox_item_id", "=", reply).execute();
    expect(envelopes).toEqual([]);
  });
});
