import { beforeAll, describe, expect, it } from "vitest";
import { type Backend, DEMO, api, backends, sessionsOf, useApi } from "./harness";

// A case page lists the case's notices and their documents; an ECF notification page lists its
// documents. Both lists go through the firm's scope and its ethical walls.

async function setUp(server: ReturnType<ReturnType<typeof useApi>>, admin: ReturnType<typeof api>) {
  const db = server.ctx.database.db;
  const firmId = (await db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;
  const walled = (await admin.post("/api/v1/timekeeper", { full_name: "Wanda Walled", email: "wanda@lawfirm.test" })).body.id as string;
  const client = (await admin.post("/api/v1/client", { name: "Listed Client", unique_key: "C-LIST" })).body.id;
  const matter = (await admin.post("/api/v1/matter", { name: "Listed matter", unique_key: "M-LIST", client_id: client })).body.id;
  const jurisdiction = (await admin.post("/api/v1/jurisdiction", { name: "D. Del. lists", ecfx_jurisdictions: ["ded"] })).body.id;
  const courtCase = (
    await admin.post("/api/v1/case", {
      name: "Listed v. Shown",
      case_number: "1:25-cv-00042",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [walled],
    })
  ).body.id as string;
  const raw = "From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: Listed notice\r\n\r\nA notice.\r\n";
  const item = (await admin.request("POST", "/api/v1/inbox/upload", { body: raw, headers: { "content-type": "message/rfc822" } })).body.id as string;
  await db.updateTable("inbox_item").set({ case_id: courtCase }).where("id", "=", item).execute();
  const now = Date.now();
  const fileId = await server.ctx.blobs.put(Buffer.from("%PDF-1.4 listed"), "application/pdf", now);
  await db
    .insertInto("envelope")
    .values({
      id: "env-listed",
      firm_id: firmId,
      inbox_item_id: item,
      case_id: courtCase,
      ecfx_jurisdiction_id: "ded",
      name: "Order on motion",
      date: null,
      court_envelope_id: null,
      filed_by: "",
      service_contacts: "[]",
      docket_text: "ORDER",
      created_at: now,
      updated_at: now,
    })
    .execute();
  const document = (number: number, name: string, file: string | null) => ({
    id: `doc-listed-${number}`,
    firm_id: firmId,
    envelope_id: "env-listed",
    processed_from_id: item,
    number,
    name,
    date: null,
    sealed: 0,
    court_document_id: null,
    url: null,
    file_id: file,
    fetch_status: file ? "fetched" : "pending",
    fetch_error: null,
    uploaded: 0,
    stamped_by_court: 0,
    dms_status: "new",
    created_at: now,
  });
  await db
    .insertInto("document")
    .values([document(1, "Order", fileId), document(2, "Exhibit A", null)])
    .execute();
  return { firmId, walled, matter, courtCase, item };
}

describe.each(backends)("documents and notices of a case (%s)", (backend: Backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  let admin: ReturnType<typeof api>;
  let ids: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    ids = await setUp(server(), admin);
  });

  const lists = async (as: ReturnType<typeof api>) => {
    const [notices, byCase, byEnvelope] = await Promise.all([
      as.get(`/api/v1/inbox-item/search?filter.case_id=${ids.courtCase}`),
      as.get(`/api/v1/document/list?case_id=${ids.courtCase}`),
      as.get(`/api/v1/document/list?envelope_id=env-listed`),
    ]);
    for (const response of [notices, byCase, byEnvelope]) expect(response.status).toBe(200);
    return { notices: notices.body.map((r: { id: string }) => r.id), byCase: byCase.body, byEnvelope: byEnvelope.body };
  };

  it("lists a case's notices and the documents of its envelopes, in docket order", async () => {
    const { notices, byCase, byEnvelope } = await lists(admin);
    expect(notices).toEqual([ids.item]);
    expect(byCase).toEqual([
      {
        id: "doc-listed-1",
        name: "Order",
        number: 1,
        sealed: false,
        stored: true,
        envelope_id: "env-listed",
        envelope_name: "Order on motion",
        inbox_item_id: ids.item,
      },
      {
        id: "doc-listed-2",
        name: "Exhibit A",
        number: 2,
        sealed: false,
        stored: false,
        envelope_id: "env-listed",
        envelope_name: "Order on motion",
        inbox_item_id: ids.item,
      },
    ]);
    expect(byEnvelope).toEqual(byCase);
  });

  it("shows another firm's user none of them", async () => {
    const other = api(server().url, (await sessionOf(DEMO.secondAdmin)).access_token);
    expect(await lists(other)).toEqual({ notices: [], byCase: [], byEnvelope: [] });
  });

  it("shows a user an ethical wall keeps out of the matter none of them, and the case still", async () => {
    const db = server().ctx.database.db;
    const wall = await admin.post("/api/v1/ethical-wall", { name: "Keep Wanda out", type: "exclusionary", matter_id: ids.matter, timekeepers: [ids.walled] });
    expect(wall.status).toBe(201);
    await db.updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", ids.firmId).execute();
    const docketing = await sessionOf(DEMO.docketing);
    const asDocketing = api(server().url, docketing.access_token);
    expect((await lists(asDocketing)).byCase).toHaveLength(2);
    await db.updateTable("app_user").set({ timekeeper_id: ids.walled }).where("email", "=", DEMO.docketing).execute();
    try {
      expect(await lists(asDocketing)).toEqual({ notices: [], byCase: [], byEnvelope: [] });
      expect((await asDocketing.get(`/api/v1/case/${ids.courtCase}`)).status).toBe(200);
    } finally {
      await db.updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.docketing).execute();
    }
  });

  it("answers 400 unless exactly one of a case and an envelope is named", async () => {
    for (const query of ["", "?case_id=", `?case_id=${ids.courtCase}&envelope_id=env-listed`]) {
      const response = await admin.get(`/api/v1/document/list${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toBeTruthy();
    }
  });
});
