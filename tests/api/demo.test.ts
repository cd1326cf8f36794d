import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { sendDemoNotices } from "../../server/seed/send-demo-notices";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { withoutControlCharacters } from "../../server/lib/control-characters";
import { parseNoticeEmail } from "../../server/notices";
import { type DemoYearReport, seedDemoYear } from "../../server/seed/demo-year";
import { DEMO, type RunningApi, api, backends, login, startApi } from "./harness";

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

describe.each(backends)("the demo firm's year (%s)", (backend) => {
  let running: RunningApi;
  let firmId: number;
  let secondFirmId: number;
  let report: DemoYearReport | null;
  let claimed: Array<{ id: string; local_date: string; timekeeper_group_id: string }>;

  beforeAll(async () => {
    running = await startApi({ backend, env: { ECFX_DEMO_DATA: "true" } });
    const firms = await running.ctx.database.db.selectFrom("firm").select(["id", "is_default"]).orderBy("id").execute();
    firmId = firms.find((f) => f.is_default)!.id;
    secondFirmId = firms.find((f) => !f.is_default)!.id;
    // The product's scheduler runs while the year is written: it has claimed the digests of the
    // last three days already, as it would have on a machine that was up.
    const groups = await running.ctx.database.db
      .selectFrom("timekeeper_group")
      .select("id")
      .where("firm_id", "=", firmId)
      .where("notification_cadence", "!=", "REALTIME")
      .execute();
    expect(groups.length).toBeGreaterThan(0);
    const rows = groups.flatMap((g) =>
      [0, 1, 2].map((back) => ({
        id: `claimed-${g.id}-${back}`,
        firm_id: firmId,
        timekeeper_group_id: g.id,
        local_date: new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10),
        kind: "digest",
        status: "sent",
        created_at: Date.now() - back * 86_400_000,
      })),
    );
    await running.ctx.database.db.insertInto("digest_run").values(rows).execute();
    claimed = rows;
    report = await seedDemoYear(running.ctx, firmId);
  }, 300_000);

  afterAll(async () => {
    await running?.close();
  });

  it("gives the demo firm a few hundred cases and a year of notices in a weekday rhythm", async () => {
    const db = running.ctx.database.db;
    expect(report?.cases).toBeGreaterThanOrEqual(300);
    const cases = await db.selectFrom("court_case").select("id").where("firm_id", "=", firmId).execute();
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const items = await db.selectFrom("inbox_item").select(["created_at", "status", "disposition"]).where("firm_id", "=", firmId).execute();
    expect(items.length).toBeGreaterThanOrEqual(2000);
    const months = new Set(items.map((i) => new Date(Number(i.created_at)).toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(11);
    const weekend = items.filter((i) => [0, 6].includes(new Date(Number(i.created_at) - 5 * 3_600_000).getUTCDay()));
    expect(weekend.length).toBeLessThan(items.length * 0.1);
    expect(items.filter((i) => i.status === "Failed").length).toBeGreaterThan(0);
    expect(items.filter((i) => i.status === "Action Required").length).toBeGreaterThan(10);
    expect(items.filter((i) => i.disposition === "Processed").length).toBeGreaterThan(items.length * 0.8);
  });

  it("records documents fetched, restricted, sealed and failed, filed or not, with digests sent", async () => {
    const db = running.ctx.database.db;
    const docs = await db.selectFrom("document").select(["fetch_status", "sealed", "file_id", "dms_status"]).where("firm_id", "=", firmId).execute();
    for (const status of ["fetched", "restricted", "failed"]) expect(docs.some((d) => d.fetch_status === status)).toBe(true);
    expect(docs.some((d) => d.sealed === 1)).toBe(true);
    for (const status of ["succeeded", "failed", "canceled"]) expect(docs.some((d) => d.dms_status === status)).toBe(true);
    for (const doc of docs.filter((d) => d.file_id).slice(0, 50)) expect(await running.ctx.blobs.exists(doc.file_id!)).toBe(true);
    const runs = await db.selectFrom("digest_run").select("id").where("firm_id", "=", firmId).where("status", "=", "sent").execute();
    expect(runs.length).toBeGreaterThan(50);
    const sent = await db.selectFrom("notification").select(["cadence"]).where("firm_id", "=", firmId).where("status", "=", "sent").execute();
    expect(new Set(sent.map((n) => n.cadence))).toEqual(new Set(["realtime", "digest"]));
  });

  it("joins the digests the scheduler had claimed, and claims no day whose digest is not yet due", async () => {
    const db = running.ctx.database.db;
    const runs = await db.selectFrom("digest_run").select(["id", "timekeeper_group_id", "local_date", "created_at"]).where("firm_id", "=", firmId).execute();
    const perDay = new Map<string, number>();
    for (const r of runs) perDay.set(`${r.timekeeper_group_id} ${r.local_date}`, (perDay.get(`${r.timekeeper_group_id} ${r.local_date}`) ?? 0) + 1);
    expect([...perDay.values()].every((n) => n === 1)).toBe(true);
    for (const c of claimed) expect(runs.some((r) => r.id === c.id)).toBe(true);
    expect(runs.filter((r) => !r.id.startsWith("claimed-") && Number(r.created_at) > Date.now())).toEqual([]);
    const joined = await db
      .selectFrom("notification")
      .select("id")
      .where(
        "digest_run_id",
        "in",
        claimed.map((c) => c.id),
      )
      .execute();
    expect(joined.length).toBeGreaterThan(0);
  });

  it("stores what the parser reads from each notice", async () => {
    const rows = await running.ctx.database.db
      .selectFrom("inbox_item")
      .select(["raw_content", "parsed"])
      .where("firm_id", "=", firmId)
      .where("disposition", "=", "Processed")
      .orderBy("created_at")
      .execute();
    for (const row of rows.filter((_, i) => i % Math.ceil(rows.length / 25) === 0)) {
      expect(JSON.parse(row.parsed!)).toEqual(withoutControlCharacters(await parseNoticeEmail(row.raw_content)));
    }
  });

  it("opens a stored document and a filed one through the API, and the second firm sees none of it", async () => {
    const db = running.ctx.database.db;
    const session = await login(running.url, DEMO.admin);
    const doc = await db.selectFrom("document").select("id").where("firm_id", "=", firmId).where("dms_status", "=", "succeeded").executeTakeFirstOrThrow();
    const content = await api(running.url, session.access_token).get(`/api/v1/document/${doc.id}/content`);
    expect(content.status).toBe(200);
    expect(content.text.startsWith("%PDF-")).toBe(true);
    const record = await db.selectFrom("dms_record").select("id").where("firm_id", "=", firmId).where("status", "=", "succeeded").executeTakeFirstOrThrow();
    const filed = await api(running.url, session.access_token).get(`/api/v1/dms-record/${record.id}/content`);
    expect(filed.status).toBe(200);
    expect(filed.text.startsWith("%PDF-")).toBe(true);
    for (const table of ["inbox_item", "court_case", "document", "notification"] as const) {
      const other = await db.selectFrom(table).select("id").where("firm_id", "=", secondFirmId).execute();
      expect(other).toEqual([]);
    }
  });

  it("is added once: a second run leaves the firm as it is", async () => {
    const count = async () =>
      Number(
        (
          await running.ctx.database.db
            .selectFrom("inbox_item")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("firm_id", "=", firmId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await seedDemoYear(running.ctx, firmId)).toBeNull();
    expect(await count()).toBe(before);
  });
});
