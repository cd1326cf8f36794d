import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { wallsForMatter } from "../../server/walls/walls";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

describe.each(backends)("ethical walls (%s)", (backend) => {
  let running: RunningApi;
  let admin: ReturnType<typeof api>;
  let firmId = 0;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    running = await startApi({ backend });
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    for (const name of ["Wendy Walled", "Ian Inside", "Otto Other"]) {
      ids[name] = (await admin.post("/api/v1/timekeeper", { full_name: name, email: `${name.split(" ")[0]!.toLowerCase()}@lawfirm.test` })).body.id;
    }
    const client = (await admin.post("/api/v1/client", { name: "Walled Client", unique_key: "C-WALL" })).body.id;
    ids.client = client;
    ids.matter = (await admin.post("/api/v1/matter", { name: "Walled matter", unique_key: "M-WALL", client_id: client })).body.id;
    ids.otherMatter = (await admin.post("/api/v1/matter", { name: "Second matter", unique_key: "M-WALL-2", client_id: client })).body.id;
    firmId = (await running.ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
  });

  afterAll(async () => {
    await running?.close();
  });

  // The queue runs only when a test says so: between a change and the run, the firm's walls are
  // seen "applying" (a worker polling all along could finish the work first).
  const worker = {
    async drain() {
      const once = startWorker(running.ctx, PIPELINE_JOBS, 1);
      await once.drain();
      await once.stop();
    },
  };

  const firm = () =>
    running.ctx.database.db.selectFrom("firm").select(["internal_walls_state", "internal_walls_enabled"]).where("id", "=", firmId).executeTakeFirstOrThrow();

  it("needs a matter or a client, and at least one timekeeper", async () => {
    const neither = await admin.post("/api/v1/ethical-wall", { name: "Nowhere", timekeepers: [ids["Wendy Walled"]] });
    expect(neither.status).toBe(400);
    expect(neither.body.fieldErrors.matter_id).toEqual(["Choose a matter or a client"]);
    const nobody = await admin.post("/api/v1/ethical-wall", { name: "Nobody", matter_id: ids.matter, timekeepers: [] });
    expect(nobody.status).toBe(400);
    expect(Object.keys(nobody.body.fieldErrors)).toEqual(["timekeepers"]);
  });

  it("is managed only by users without a timekeeper", async () => {
    const manager = await running.ctx.database.db.selectFrom("app_user").select("id").where("email", "=", DEMO.manager).executeTakeFirstOrThrow();
    await running.ctx.database.db.updateTable("app_user").set({ timekeeper_id: ids["Wendy Walled"] }).where("id", "=", manager.id).execute();
    const asManager = api(running.url, (await login(running.url, DEMO.manager)).access_token);
    const refused = await asManager.post("/api/v1/ethical-wall", { name: "Self-serving", matter_id: ids.matter, timekeepers: [ids["Ian Inside"]] });
    // The manager role may not write firm settings at all, or is refused for being a timekeeper.
    expect(refused.status).toBe(403);
    expect(await running.ctx.database.db.selectFrom("ethical_wall").select("id").execute()).toHaveLength(0);
    await running.ctx.database.db.updateTable("app_user").set({ timekeeper_id: ids["Wendy Walled"] }).where("email", "=", DEMO.admin).execute();
    const asTimekeeperAdmin = await admin.post("/api/v1/ethical-wall", { name: "Self-serving", matter_id: ids.matter, timekeepers: [ids["Ian Inside"]] });
    expect(asTimekeeperAdmin.status).toBe(403);
    expect(asTimekeeperAdmin.body.message).toBe("Only users without a timekeeper may manage ethical walls");
    await running.ctx.database.db.updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.admin).execute();
  });

  it("keeps exclusionary timekeepers out of the matter, and only while the firm has walls on", async () => {
    const wall = await admin.post("/api/v1/ethical-wall", {
      name: "Keep Wendy out",
      type: "exclusionary",
      matter_id: ids.matter,
      timekeepers: [ids["Wendy Walled"]],
    });
    expect(wall.status).toBe(201);
    ids.wall = wall.body.id;
    expect((await firm()).internal_walls_state).toBe("applying");
    await worker.drain();
    expect((await firm()).internal_walls_state).toBe("unapplied");
    expect((await wallsForMatter(running.ctx.database.db, firmId, ids.matter)).isWalledOut(ids["Wendy Walled"]!)).toBe(false);

    await running.ctx.database.db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    const verdict = await wallsForMatter(running.ctx.database.db, firmId, ids.matter);
    expect(verdict.isWalledOut(ids["Wendy Walled"]!)).toBe(true);
    expect(verdict.isWalledOut(ids["Ian Inside"]!)).toBe(false);
    expect((await wallsForMatter(running.ctx.database.db, firmId, ids.otherMatter)).walled).toBe(false);
  });

  it("keeps everyone not listed out with an inclusionary wall on a client, for every matter of the client", async () => {
    expect((await admin.request("DELETE", `/api/v1/ethical-wall/${ids.wall}`)).status).toBe(204);
    const wall = await admin.post("/api/v1/ethical-wall", { name: "Only Ian", type: "inclusionary", client_id: ids.client, timekeepers: [ids["Ian Inside"]] });
    expect(wall.status).toBe(201);
    await worker.drain();
    expect((await firm()).internal_walls_state).toBe("applied");
    for (const matter of [ids.matter, ids.otherMatter]) {
      const verdict = await wallsForMatter(running.ctx.database.db, firmId, matter);
      expect(verdict.isWalledOut(ids["Ian Inside"]!)).toBe(false);
      expect(verdict.isWalledOut(ids["Otto Other"]!)).toBe(true);
    }
    // A matter that walls refer to cannot be deleted from under them.
    expect((await admin.request("DELETE", `/api/v1/client/${ids.client}`)).status).toBe(409);
  });

  it("switches the firm's walls on and off, and the state follows the recomputation", async () => {
    expect((await admin.get("/api/v1/firm/internal-walls")).body).toEqual({ enabled: true, state: "applied" });
    const off = await admin.put("/api/v1/firm/internal-walls", { enabled: false });
    expect(off.body).toEqual({ enabled: false, state: "applying" });
    await worker.drain();
    expect((await admin.get("/api/v1/firm/internal-walls")).body).toEqual({ enabled: false, state: "unapplied" });
    expect((await admin.put("/api/v1/firm/internal-walls", { enabled: "yes" })).status).toBe(400);
    await running.ctx.database.db.updateTable("app_user").set({ timekeeper_id: ids["Otto Other"] }).where("email", "=", DEMO.admin).execute();
    const refused = await admin.put("/api/v1/firm/internal-walls", { enabled: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only users without a timekeeper may manage ethical walls");
    await running.ctx.database.db.updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.admin).execute();
    expect((await admin.put("/api/v1/firm/internal-walls", { enabled: true })).body.enabled).toBe(true);
    await worker.drain();
    expect((await firm()).internal_walls_state).toBe("applied");
  });

  it("refuses a walled-out person the notice and its documents in the console", async () => {
    const db = running.ctx.database.db;
    const jurisdiction = (await admin.post("/api/v1/jurisdiction", { name: "S.D.N.Y. walls", ecfx_jurisdictions: ["nysd"] })).body.id;
    const courtCase = (
      await admin.post("/api/v1/case", {
        name: "Walled v. Open",
        case_number: "1:24-cv-09999",
        matter_id: ids.matter,
        jurisdiction_id: jurisdiction,
        assigned_timekeepers: [ids["Ian Inside"]],
      })
    ).body.id;
    const raw = "From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: Walled\r\n\r\nA notice.\r\n";
    const item = (await admin.request("POST", "/api/v1/inbox/upload", { body: raw, headers: { "content-type": "message/rfc822" } })).body.id;
    await worker.drain();
    await db.updateTable("inbox_item").set({ case_id: courtCase }).where("id", "=", item).execute();
    Object.assign(ids, { item, courtCase });
    const now = Date.now();
    const fileId = await running.ctx.blobs.put(Buffer.from("%PDF-1.4 walled"), "application/pdf", now);
    await db
      .insertInto("envelope")
      .values({
        id: "env-walled",
        firm_id: firmId,
        inbox_item_id: item,
        case_id: courtCase,
        ecfx_jurisdiction_id: "nysd",
        name: "Order",
        date: null,
        court_envelope_id: null,
        filed_by: "",
        service_contacts: "[]",
        docket_text: "ORDER",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("document")
      .values({
        id: "doc-walled",
        firm_id: firmId,
        envelope_id: "env-walled",
        processed_from_id: item,
        number: 1,
        name: "Order",
        date: null,
        sealed: 0,
        court_document_id: null,
        url: null,
        file_id: fileId,
        fetch_status: "fetched",
        fetch_error: null,
        uploaded: 0,
        stamped_by_court: 0,
        dms_status: "new",
        created_at: now,
      })
      .execute();

    const as = async (timekeeper: string | null) => {
      await db.updateTable("app_user").set({ timekeeper_id: timekeeper }).where("email", "=", DEMO.admin).execute();
      return [`/api/v1/document/doc-walled/content`, `/api/v1/inbox/${item}/card`, `/api/v1/inbox/${item}/raw`].map((path) => admin.get(path));
    };
    for (const response of await Promise.all(await as(ids["Otto Other"]!))) {
      expect(response.status).toBe(403);
      expect(response.body?.message ?? "An ethical wall keeps you out of this matter.").toBe("An ethical wall keeps you out of this matter.");
    }
    for (const response of await Promise.all(await as(ids["Ian Inside"]!))) expect(response.status).toBe(200);
    for (const response of await Promise.all(await as(null))) expect(response.status).toBe(200);
  });

  it("lets a walled-out person change nothing of the notice, and names the wall for each item a bulk action skips", async () => {
    const db = running.ctx.database.db;
    const wall = "An ethical wall keeps you out of this matter.";
    const before = await db.selectFrom("inbox_item").selectAll().where("id", "=", ids.item!).executeTakeFirstOrThrow();
    await db.updateTable("app_user").set({ timekeeper_id: ids["Otto Other"] }).where("email", "=", DEMO.admin).execute();
    const archive = await admin.post("/api/v1/inbox/bulk", { action: "archive", ids: [ids.item] });
    expect([archive.status, archive.body]).toEqual([200, { done: [], skipped: [{ id: ids.item, reason: wall }] }]);
    const requeue = await admin.post("/api/v1/inbox/requeue", { ids: [ids.item] });
    expect([requeue.status, requeue.body.done, requeue.body.skipped]).toEqual([409, [], [{ id: ids.item, reason: wall }]]);
    const reprocess = await admin.post(`/api/v1/inbox/${ids.item}/reprocess`, { case_id: ids.courtCase });
    expect([reprocess.status, reprocess.body.message]).toEqual([403, wall]);
    expect(await db.selectFrom("inbox_item").selectAll().where("id", "=", ids.item!).executeTakeFirstOrThrow()).toEqual(before);
    await db.updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.admin).execute();
    expect((await admin.post("/api/v1/inbox/bulk", { action: "archive", ids: [ids.item] })).body.done).toEqual([ids.item]);
  });

  it("is on the disk before the API says it is made, and reads flush nothing (decision 139)", async () => {
    const database = running.ctx.database;
    const own = database.commitsOnDisk;
    let answered = false;
    /** At each flush: whether the caller already had its answer, and whether the wall was committed. */
    const flushes: { answered: boolean; committed: boolean }[] = [];
    database.commitsOnDisk = async () => {
      const committed = await database.db.selectFrom("ethical_wall").select("id").where("name", "=", "Kept through a power cut").executeTakeFirst();
      flushes.push({ answered, committed: committed !== undefined });
      return own();
    };
    try {
      const wall = await admin.post("/api/v1/ethical-wall", { name: "Kept through a power cut", matter_id: ids.otherMatter, timekeepers: [ids["Otto Other"]] });
      answered = true;
      expect(wall.status).toBe(201);
      expect(flushes).toEqual([{ answered: false, committed: true }]);
      expect((await admin.get(`/api/v1/ethical-wall/${wall.body.id}`)).status).toBe(200);
      expect(flushes).toHaveLength(1);
      expect((await admin.request("DELETE", `/api/v1/ethical-wall/${wall.body.id}`)).status).toBe(204);
      expect(flushes).toHaveLength(2);
    } finally {
      database.commitsOnDisk = own;
    }
  });
});
