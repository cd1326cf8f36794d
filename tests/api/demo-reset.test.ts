import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFirm, createUser } from "../../server/firm/create-firm";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { DEMO_CASES } from "../../server/seed/demo-firm-data";
import { demoNotices } from "../../server/seed/demo-notices";
import { KEPT_TABLES, RESET_TABLES } from "../../server/seed/demo-reset";
import { firmStorageRoot } from "../../server/dms/dms-targets";
import { DEMO, DEMO_PASSWORD, type RunningApi, api, backends, creator, login, sessionsOf, startApi, useApi } from "./harness";

// The demo installation's reset: the demo firm's data deleted and seeded again, nothing of
// another firm touched, only for the demo firm's users with full firm access, and absent from an
// installation that is not a demo.

/** What the first start seeds for the demo firm, besides the notices. */
const SEEDED = [
  "client",
  "matter",
  "court_case",
  "case_timekeeper",
  "timekeeper",
  "jurisdiction",
  "jurisdiction_ecfx",
  "timekeeper_group",
  "notification_rule",
  "generic_credential",
  "storage_policy",
  "ignored_case",
] as const;

type Db = RunningApi["ctx"]["database"]["db"];

async function countsOf(db: Db, firmId: number, tables: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where firm_id = ${firmId}`.execute(db);
    counts[table] = Number(row.rows[0]?.n ?? 0);
  }
  return counts;
}

function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Jobs whose row is gone: none may be left by a reset, whatever the worker was doing. */
async function orphanJobs(db: Db): Promise<string[]> {
  const jobs = await db.selectFrom("job").select(["id", "kind", "ref_id"]).execute();
  const orphans: string[] = [];
  for (const job of jobs) {
    const table = job.kind === "fetch-document" ? "document" : job.kind === "apply-walls" ? "firm" : "inbox_item";
    const found = await sql`select 1 from ${sql.table(table)} where id = ${table === "firm" ? Number(job.ref_id) : job.ref_id}`.execute(db);
    if (found.rows.length === 0) orphans.push(`${job.kind} ${job.ref_id}`);
  }
  return orphans;
}

describe.each(backends)("resetting the demo firm (%s)", (backend) => {
  let simulator: CourtSimulator;
  let running: RunningApi;
  let worker: Worker | undefined;
  let demoId: number;
  let secondId: number;
  let seeded: Record<string, number>;
  let secondBefore: Record<string, number>;
  let secondFile: string;
  const sessionOf = sessionsOf(() => running);
  const reset = async (email: string = DEMO.admin) => api(running.url, (await sessionOf(email)).access_token).post("/api/v1/demo/reset");

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_DEMO_DATA: "true", ECFX_DEMO_YEAR: "false", ECFX_COURT_BASE_URL: simulator.url } });
    const db = running.ctx.database.db;
    const firms = await db.selectFrom("firm").select(["id", "is_default"]).orderBy("id").execute();
    demoId = firms.find((f) => f.is_default)!.id;
    secondId = firms.find((f) => !f.is_default)!.id;
    seeded = await countsOf(db, demoId, SEEDED);
    // The other firm has data of its own: one of the demo cases too (so the worker fetches the
    // same document for both firms, stored once), a notice waiting with its job, a filed file.
    const add = creator(api(running.url, (await sessionOf(DEMO.secondAdmin)).access_token));
    const client = await add("/api/v1/client", { name: "Second Client", unique_key: "S-1" });
    const matter = await add("/api/v1/matter", { name: "Second Matter", unique_key: "SM-1", client_id: client });
    const jurisdiction = await add("/api/v1/jurisdiction", { name: "S.D.N.Y.", ecfx_jurisdictions: ["nysd"] });
    const keeper = await add("/api/v1/timekeeper", { full_name: "Sam Second", email: "sam@second.test", unique_key: "ST-1" });
    await add("/api/v1/case", {
      name: DEMO_CASES[0].name,
      case_number: DEMO_CASES[0].number,
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [keeper],
    });
    await receiveMessage(running.ctx, { firmId: secondId, raw: Buffer.from(demoNotices()[0]!.raw), source: "UPLOAD" });
    secondFile = path.join(firmStorageRoot(running.ctx.config.fileStoreRoot, secondId), "kept", "filed.pdf");
    fs.mkdirSync(path.dirname(secondFile), { recursive: true });
    fs.writeFileSync(secondFile, "%PDF-1.4 second firm");
    secondBefore = await countsOf(db, secondId, [...RESET_TABLES]);
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  it("leaves every table with a firm's rows either reset or kept on purpose", async () => {
    const db = running.ctx.database.db;
    const tables =
      backend === "postgres"
        ? // Tables only: a view over them (the DMS credential directory) holds no rows of its own.
          (
            await sql<{ name: string }>`select c.table_name as name from information_schema.columns c
              join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
              where c.column_name = 'firm_id' and c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db)
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select m.name from sqlite_master m, pragma_table_info(m.name) p
              where m.type = 'table' and p.name = 'firm_id'`.execute(db)
          ).rows.map((r) => r.name);
    const listed = new Set<string>([...RESET_TABLES, ...KEPT_TABLES]);
    expect(tables.filter((t) => !listed.has(t))).toEqual([]);
  });

  it("refuses users of the demo firm without full firm access (403) and every other firm (404)", async () => {
    expect((await reset(DEMO.viewOnly)).status).toBe(403);
    expect((await reset(DEMO.docketing)).status).toBe(403);
    const other = await reset(DEMO.secondAdmin);
    expect(other.status).toBe(404);
    expect((await api(running.url).post("/api/v1/demo/reset")).status).toBe(401);
    expect(await countsOf(running.ctx.database.db, demoId, SEEDED)).toEqual(seeded);
  });

  it("offers the reset among the demo firm's parts of the product, and to no other firm", async () => {
    const parts = async (email: string) => (await api(running.url, (await sessionOf(email)).access_token).get("/api/v1/firm/features")).body.parts;
    expect(await parts(DEMO.admin)).toContain("DEMO_RESET");
    expect(await parts(DEMO.secondAdmin)).not.toContain("DEMO_RESET");
  });

  it("deletes the demo firm's data and seeds it again, with an AUDIT entry, leaving the other firm alone", async () => {
    const db = running.ctx.database.db;
    const extra = api(running.url, (await sessionOf(DEMO.admin)).access_token);
    expect((await extra.post("/api/v1/client", { name: "Added During The Demo", unique_key: "D-1" })).status).toBe(201);

    // Walls switched on, their recomputation queued: the reset ends it, as nothing is left to wall.
    const walls = await extra.get("/api/v1/firm");
    expect((await extra.put(`/api/v1/firm/${demoId}`, { ...walls.body, internal_walls_enabled: true })).body.internal_walls_state).toBe("applying");

    const res = await reset();
    expect(res.status).toBe(200);
    expect((await extra.get("/api/v1/firm")).body).toMatchObject({ internal_walls_enabled: true, internal_walls_state: "applied" });
    expect(res.body.added).toEqual({ cases: DEMO_CASES.length, notices: demoNotices().length });
    expect(res.body.removed.cases).toBe(DEMO_CASES.length);
    expect(await countsOf(db, demoId, SEEDED)).toEqual(seeded);
    expect(await db.selectFrom("client").select("id").where("unique_key", "=", "D-1").execute()).toEqual([]);
    const inbox = await countsOf(db, demoId, ["inbox_item", "job"]);
    expect(inbox).toEqual({ inbox_item: demoNotices().length, job: demoNotices().length });
    const audit = await db.selectFrom("event_log").select("detail").where("firm_id", "=", demoId).where("level", "=", "AUDIT").execute();
    expect(audit.map((a) => a.detail)).toContain(`${DEMO.admin} reset the demo firm's data`);
    // The users and their roles stay: the admin still signs in with the same password.
    expect((await login(running.url, DEMO.admin, DEMO_PASSWORD)).user.email).toBe(DEMO.admin);

    expect(await countsOf(db, secondId, [...RESET_TABLES])).toEqual(secondBefore);
    expect(fs.readFileSync(secondFile, "utf8")).toBe("%PDF-1.4 second firm");
  });

  it("answers 409 while a worker holds one of the firm's jobs, deleting nothing and leaving every item its job", async () => {
    const db = running.ctx.database.db;
    const before = await countsOf(db, demoId, [...SEEDED, "inbox_item"]);
    const held = await db.selectFrom("job").select("id").where("firm_id", "=", demoId).limit(1).executeTakeFirstOrThrow();
    await db
      .updateTable("job")
      .set({ locked_by: "another-machine:1:worker", locked_until: Date.now() + 600_000 })
      .where("id", "=", held.id)
      .execute();
    const res = await reset();
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("The demo data is being processed. Try again in a minute.");
    expect(await countsOf(db, demoId, [...SEEDED, "inbox_item"])).toEqual(before);
    const withoutJob = await db
      .selectFrom("inbox_item")
      .select("id")
      .where("firm_id", "=", demoId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("job").select("job.id").whereRef("job.ref_id", "=", "inbox_item.id"))))
      .execute();
    expect(withoutJob).toEqual([]);
    await db.updateTable("job").set({ locked_by: null, locked_until: null }).where("id", "=", held.id).execute();
  }, 60_000);

  it("removes the documents' files and the filed copies from disk", async () => {
    const db = running.ctx.database.db;
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    await worker.drain();
    await worker.stop();
    worker = undefined;
    const fetched = await db.selectFrom("document").select("file_id").where("firm_id", "=", demoId).where("file_id", "is not", null).execute();
    expect(fetched.length).toBeGreaterThan(5);
    for (const doc of fetched) expect(await running.ctx.blobs.exists(doc.file_id!)).toBe(true);
    const demoRoot = firmStorageRoot(running.ctx.config.fileStoreRoot, demoId);
    const filed = filesUnder(demoRoot);
    expect(filed.length).toBeGreaterThan(5);
    // The worker processed the other firm's notice too: that is its state now.
    const secondProcessed = await countsOf(db, secondId, [...RESET_TABLES]);
    expect(secondProcessed.document).toBeGreaterThan(0);

    const res = await reset();
    expect(res.status).toBe(200);
    expect(res.body.removed.files).toBeGreaterThanOrEqual(filed.length);
    const secondDocs = await db.selectFrom("document").select("file_id").where("firm_id", "=", secondId).where("file_id", "is not", null).execute();
    const shared = new Set(secondDocs.map((d) => d.file_id));
    expect(fetched.filter((d) => shared.has(d.file_id)).length).toBeGreaterThan(0);
    for (const doc of fetched) expect([doc.file_id, await running.ctx.blobs.exists(doc.file_id!)]).toEqual([doc.file_id, shared.has(doc.file_id)]);
    expect(filesUnder(demoRoot)).toEqual([]);
    expect(await countsOf(db, demoId, ["document", "envelope", "dms_record"])).toEqual({ document: 0, envelope: 0, dms_record: 0 });
    expect(fs.existsSync(secondFile)).toBe(true);
    expect(await countsOf(db, secondId, [...RESET_TABLES])).toEqual(secondProcessed);
    for (const doc of secondDocs) expect(await running.ctx.blobs.exists(doc.file_id!)).toBe(true);
  }, 180_000);

  it("resets while the worker processes the demo notices, leaving no job without its row", async () => {
    const db = running.ctx.database.db;
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    // The worker is at the notices the last reset queued; the reset waits until it lets go.
    let res = await reset();
    while (res.status === 409) res = await reset();
    expect(res.status).toBe(200);
    expect(await orphanJobs(db)).toEqual([]);
    await worker.drain();
    expect(await orphanJobs(db)).toEqual([]);
    expect(await countsOf(db, demoId, SEEDED)).toEqual(seeded);
    expect(await countsOf(db, demoId, ["inbox_item"])).toEqual({ inbox_item: demoNotices().length });
    const items = await db.selectFrom("inbox_item").select("status").where("firm_id", "=", demoId).execute();
    expect(items.filter((i) => ["New", "Started", "Retry"].includes(i.status))).toEqual([]);
    await worker.stop();
    worker = undefined;
  }, 180_000);
});

describe.each(backends)("an installation that is not a demo (%s)", (backend) => {
  const server = useApi({ backend, env: { ECFX_DEMO: "false" } });

  it("has no demo reset: the API answers 404 and the firm's parts leave it out", async () => {
    const { database } = server().ctx;
    const firm = await createFirm(database, { name: "Real Firm LLP", isDefault: true }, Date.now());
    await createUser(
      database,
      { firmId: firm.firmId, email: "admin@real.test", fullName: "Real Admin", displayName: "Real", roleId: firm.roles.Administrator, password: DEMO_PASSWORD },
      Date.now(),
    );
    const admin = api(server().url, (await login(server().url, "admin@real.test")).access_token);
    await admin.post("/api/v1/client", { name: "Real Client", unique_key: "R-1" });
    const res = await admin.post("/api/v1/demo/reset");
    expect(res.status).toBe(404);
    expect((await admin.get("/api/v1/firm/features")).body.parts).not.toContain("DEMO_RESET");
    expect(await countsOf(database.db, firm.firmId, ["client"])).toEqual({ client: 1 });
  });
});
