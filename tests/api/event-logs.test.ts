import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApi, DEMO, api, backends, creator, login, startApi } from "./harness";

// /event-logs: the firm's events through the generic read-only API: firm-scoped, filtered by
// ethical walls (an event about a walled notice is the notice's), filterable by severity,
// sortable, exportable; for roles that may read the firm settings.
describe.each(backends)("event logs (%s)", (backend) => {
  let running: RunningApi;
  const as: Record<keyof typeof DEMO, ReturnType<typeof api>> = {} as never;
  const db = () => running.ctx.database.db;
  const ids: Record<string, string> = {};
  let demoFirm = 0;

  beforeAll(async () => {
    running = await startApi({ backend });
    for (const key of Object.keys(DEMO) as (keyof typeof DEMO)[]) as[key] = api(running.url, (await login(running.url, DEMO[key])).access_token);
    demoFirm = (await db().selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
    const post = creator(as.admin);
    ids.walled = await post("/api/v1/timekeeper", { full_name: "Wendy Walled", email: "wendy@lawfirm.test" });
    const client = await post("/api/v1/client", { name: "Quahog Client", unique_key: "C-QUA" });
    const matter = await post("/api/v1/matter", { name: "Quahog matter", unique_key: "M-QUA", client_id: client });
    const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. quahog", ecfx_jurisdictions: ["nysd"] });
    ids.case = await post("/api/v1/case", {
      name: "Quahog v. Open",
      case_number: "1:24-cv-08888",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [ids.walled],
    });
    await post("/api/v1/ethical-wall", { name: "Keep Wendy out", type: "exclusionary", matter_id: matter, timekeepers: [ids.walled] });
    await db().updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", demoFirm).execute();
    const upload = await as.admin.request("POST", "/api/v1/inbox/upload", {
      body: "From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: Quahog notice\r\n\r\nA notice.\r\n",
      headers: { "content-type": "message/rfc822" },
    });
    ids.item = String(upload.body.id);
    await db().updateTable("inbox_item").set({ case_id: ids.case }).where("id", "=", ids.item).execute();
    const now = Date.now();
    await db()
      .insertInto("event_log")
      .values([
        {
          id: "ev-walled",
          firm_id: demoFirm,
          inbox_item_id: ids.item,
          level: "ERROR",
          event: "storage failed",
          detail: "QUAHOG WALLED DETAIL",
          created_at: now,
        },
        { id: "ev-firm", firm_id: demoFirm, inbox_item_id: null, level: "AUDIT", event: "user changed", detail: "QUAHOG FIRM DETAIL", created_at: now + 1 },
      ])
      .execute();
    // The Manager may read the firm settings; linked to the walled timekeeper, the wall holds them.
    await db().updateTable("app_user").set({ timekeeper_id: ids.walled }).where("email", "=", DEMO.manager).execute();
  });

  afterAll(async () => {
    await running?.close();
  });

  const details = (rows: { detail: string }[]) => rows.map((r) => r.detail).filter((d) => d.startsWith("QUAHOG"));

  it("shows the firm's events, newest first, with an event about a walled notice kept from the walled user", async () => {
    const admin = await as.admin.get("/api/v1/event-log/search?freeText=quahog");
    expect(admin.status).toBe(200);
    expect(details(admin.body)).toEqual(["QUAHOG FIRM DETAIL", "QUAHOG WALLED DETAIL"]);
    expect(admin.headers.get("x-total-count")).toBe("2");

    const manager = await as.manager.get("/api/v1/event-log/search?freeText=quahog");
    expect(details(manager.body)).toEqual(["QUAHOG FIRM DETAIL"]);
    expect(manager.headers.get("x-total-count")).toBe("1");
    expect((await as.manager.get("/api/v1/event-log/ev-walled")).status).toBe(404);
    const csv = await as.manager.get("/api/v1/event-log/export");
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("QUAHOG FIRM DETAIL");
    expect(csv.text).not.toContain("QUAHOG WALLED DETAIL");
  });

  it("filters by severity and sorts, through the same URL parameters as every table", async () => {
    const audit = await as.admin.get("/api/v1/event-log/search?freeText=quahog&filter.level=AUDIT");
    expect(details(audit.body)).toEqual(["QUAHOG FIRM DETAIL"]);
    const oldest = await as.admin.get("/api/v1/event-log/search?freeText=quahog&sort=created_at");
    expect(details(oldest.body)).toEqual(["QUAHOG WALLED DETAIL", "QUAHOG FIRM DETAIL"]);
  });

  it("keeps another firm's events and the roles without the firm settings out", async () => {
    const other = await as.secondAdmin.get("/api/v1/event-log/search?freeText=quahog");
    expect(other.status).toBe(200);
    expect(other.body).toEqual([]);
    expect((await as.secondAdmin.get("/api/v1/event-log/ev-firm")).status).toBe(404);
    expect((await as.docketing.get("/api/v1/event-log/search")).status).toBe(403);
    expect((await as.viewOnly.get("/api/v1/event-log/search")).status).toBe(403);
    expect((await as.admin.post("/api/v1/event-log", { level: "INFO" })).status).toBeGreaterThanOrEqual(400);
  });
});
