import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { findFirm } from "../../server/firm/firm-repository";
import { type Worker, startWorker } from "../../server/queue/worker";
import { loadRecipientInput } from "../../server/notify/recipient-inputs";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type DocketQuery, readDocket } from "../../server/pipeline/docket-reads";
import { normaliseCaseNumber } from "../../server/resources/case-number";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// Jurisdiction preferences: validation, isolation between firms, one ordered list rewritten in
// one call (also under concurrent calls), and the pipeline applying the first enabled preference
// that matches a notice — its auto case creation rule and its notification rules.

// nef-folded-subject.eml: N.D. Cal. (cand), 3:24-cv-00456, parties served at shiplaw.test and
// workerslaw.test, a case the firm does not have.
const raw = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml"));

describe.each(backends)("jurisdiction preferences (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let a: ReturnType<typeof api>;
  let b: ReturnType<typeof api>;
  const ids: Record<string, string> = {};
  const PATH = "/api/v1/jurisdiction-preference";

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    a = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    b = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const db = () => running.ctx.database.db;
  const orders = async (): Promise<[string, number][]> =>
    (await a.get(`${PATH}/search?sort=order&max=100`)).body.map((p: { name: string; order: number }) => [p.name, p.order]);
  const create = async (client: ReturnType<typeof api>, body: Record<string, unknown>) => {
    const res = await client.post(PATH, body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  it("asks for a name and valid party domains, and refuses another firm's groups, rules and settings", async () => {
    const missing = await a.post(PATH, { enabled: true });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors.name).toEqual(["This field is required."]);
    const badDomain = await a.post(PATH, { name: "Bad domain", party_email_domains: ["not a domain"] });
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.fieldErrors["party_email_domains.0"] ?? badDomain.body.fieldErrors.party_email_domains).toBeTruthy();

    const courtB = (await b.post("/api/v1/jurisdiction", { name: "B's court", ecfx_jurisdictions: ["nysd"] })).body.id;
    const groupB = (await b.post("/api/v1/jurisdiction-group", { name: "B's group", jurisdiction_references: [courtB] })).body.id;
    const ruleB = (await b.post("/api/v1/notification-rule", { name: "B's rule", include_emails: ["b@second.test"] })).body.id;
    const settingB = (await b.post("/api/v1/document-processing", { name: "B's processing" })).body.id;
    const preferenceB = await create(b, { name: "B's preference", jurisdiction_groups: [groupB] });
    for (const borrowed of [{ jurisdiction_groups: [groupB] }, { notification_rules: [ruleB] }, { document_processing_id: settingB }]) {
      const res = await a.post(PATH, { name: "Borrowing", ...borrowed });
      expect(res.status, JSON.stringify(borrowed)).toBe(400);
    }
    expect((await a.get(`${PATH}/${preferenceB}`)).status).toBe(404);
    expect((await a.get(`/api/v1/document-processing/${settingB}`)).status).toBe(404);
    expect((await a.request("PATCH", `${PATH}/${preferenceB}`, { json: { enabled: true } })).status).toBe(404);
    // Nor can firm A move firm B's preference by naming it in an order.
    const moved = await a.request("PUT", `${PATH}/order`, { json: { ids: [preferenceB] } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe("Error while updating order");
    expect((await b.get(`${PATH}/${preferenceB}`)).body.order).toBe(1);
  });

  it("puts a new preference last and rewrites the whole order in one call", async () => {
    ids.first = await create(a, { name: "First" });
    ids.second = await create(a, { name: "Second" });
    ids.third = await create(a, { name: "Third" });
    expect(await orders()).toEqual([
      ["First", 1],
      ["Second", 2],
      ["Third", 3],
    ]);
    const res = await a.request("PUT", `${PATH}/order`, { json: { ids: [ids.third, ids.first, ids.second] } });
    expect(res.status).toBe(200);
    expect(await orders()).toEqual([
      ["Third", 1],
      ["First", 2],
      ["Second", 3],
    ]);
    // A list that leaves some out keeps those after the ones it names, in their order.
    await a.request("PUT", `${PATH}/order`, { json: { ids: [ids.second] } });
    expect(await orders()).toEqual([
      ["Second", 1],
      ["Third", 2],
      ["First", 3],
    ]);
    const twice = await a.request("PUT", `${PATH}/order`, { json: { ids: [ids.first, ids.first] } });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("Error while updating order");
  });

  it("refuses a reorder to a role that may only read the preferences", async () => {
    const viewer = api(running.url, (await login(running.url, DEMO.viewOnly)).access_token);
    expect((await viewer.get(`${PATH}/search`)).status).toBe(200);
    expect((await viewer.request("PUT", `${PATH}/order`, { json: { ids: [ids.first, ids.second, ids.third] } })).status).toBe(403);
    expect((await orders()).map(([name]) => name)).toEqual(["Second", "Third", "First"]);
  });

  it("keeps every order once under concurrent reorders and creations", async () => {
    const all = [ids.first!, ids.second!, ids.third!];
    const permutations = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
      [0, 2, 1],
      [2, 0, 1],
      [1, 2, 0],
    ].map((p) => p.map((i) => all[i]!));
    const results = await Promise.all([
      ...permutations.map((order) => a.request("PUT", `${PATH}/order`, { json: { ids: order } })),
      ...[1, 2, 3].map((n) => a.post(PATH, { name: `Concurrent ${n}` })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 201, 201, 201]);
    const rows = await orders();
    expect(rows.map(([, order]) => order)).toEqual([1, 2, 3, 4, 5, 6]);
    // The three reordered ones stand in one of the orders sent, relative to each other.
    const reordered = rows.map(([name]) => name).filter((name) => ["First", "Second", "Third"].includes(name));
    const names = { [ids.first!]: "First", [ids.second!]: "Second", [ids.third!]: "Third" };
    expect(permutations.map((p) => p.map((id) => names[id]).join())).toContain(reordered.join());
    for (const row of await a.get(`${PATH}/search?max=100&freeText=Concurrent`).then((r) => r.body)) {
      await a.request("DELETE", `${PATH}/${row.id}`);
    }
    for (const id of all) await a.request("DELETE", `${PATH}/${id}`);
  });

  const processed = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      await worker.drain();
      const item = await db().selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const notifying = await db().selectFrom("job").select("id").where("ref_id", "=", id).executeTakeFirst();
      if (!["New", "Started", "Retry", "Post Processing"].includes(item.status) && !notifying) return item;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the item was not processed");
  };
  const upload = async (copy: string) => {
    const body = Buffer.from(raw.toString("latin1").replace(/^Message-ID:\s*<([^>]+)>/im, `Message-ID: <${copy}-$1>`), "latin1");
    const res = await a.request("POST", "/api/v1/inbox/upload", { body: new Uint8Array(body), headers: { "content-type": "message/rfc822" } });
    expect(res.status).toBe(201);
    return processed(res.body.id);
  };
  const notified = async (itemId: string) =>
    (await db().selectFrom("notification").select("email").where("inbox_item_id", "=", itemId).execute()).map((n) => n.email);

  it("applies the first enabled preference that matches the notice: its auto case creation and notification rules", async () => {
    const court = (await a.post("/api/v1/jurisdiction", { name: "Preferred N.D. Cal.", ecfx_jurisdictions: ["cand"] })).body.id;
    const elsewhere = (await a.post("/api/v1/jurisdiction", { name: "Preferred D. Del.", ecfx_jurisdictions: ["ded"] })).body.id;
    const california = (await a.post("/api/v1/jurisdiction-group", { name: "California", jurisdiction_references: [court] })).body.id;
    const delaware = (await a.post("/api/v1/jurisdiction-group", { name: "Delaware", jurisdiction_references: [elsewhere] })).body.id;
    const keeper = (await a.post("/api/v1/timekeeper", { full_name: "Pref Keeper", email: "pref.keeper@lawfirm.test" })).body.id;
    const client = (await a.post("/api/v1/client", { name: "Pacific Co", unique_key: "C-PAC" })).body.id;
    const matter = async (key: string) => (await a.post("/api/v1/matter", { name: key, unique_key: key, client_id: client })).body.id;
    const rule = async (name: string, matterId: string) =>
      (await a.post("/api/v1/auto-case-creation", { name, party_email_domains: ["shiplaw.test"], matter_id: matterId, timekeepers: [keeper] })).body.id;
    const firmMatter: string = await matter("M-FIRM");
    const preferredMatter: string = await matter("M-PREF");
    ids.preferredMatter = preferredMatter;
    // The firm-wide rule would claim the notice by its domain; the preference's rule wins.
    await rule("A firm-wide rule", firmMatter);
    const preferredRule = await rule("Preferred rule", preferredMatter);
    const disabledRule = await rule("Disabled rule", await matter("M-OFF"));
    const firmWide = (await a.post("/api/v1/notification-rule", { name: "Firm-wide copy", include_emails: ["firmwide@lawfirm.test"] })).body.id;
    const preferredCopy = (await a.post("/api/v1/notification-rule", { name: "Preferred copy", include_emails: ["preferred@lawfirm.test"] })).body.id;
    expect(firmWide && preferredCopy).toBeTruthy();

    ids.disabled = await create(a, { name: "Disabled", enabled: false, jurisdiction_groups: [california], auto_case_creation_id: disabledRule });
    ids.otherCourt = await create(a, { name: "Delaware only", enabled: true, jurisdiction_groups: [delaware] });
    ids.otherParties = await create(a, { name: "Other parties", enabled: true, jurisdiction_groups: [california], party_email_domains: ["elsewhere.test"] });
    ids.applies = await create(a, {
      name: "California shipping",
      enabled: true,
      jurisdiction_groups: [california, delaware],
      party_email_domains: ["shiplaw.test"],
      auto_case_creation_id: preferredRule,
      notification_rules: [preferredCopy],
    });
    ids.everyCourt = await create(a, { name: "Every court", enabled: true });

    const item = await upload("preferred");
    expect(item.jurisdiction_preference_id).toBe(ids.applies);
    expect(item.disposition).toBe("Processed");
    const kase = (await a.get(`/api/v1/case/${item.case_id}`)).body;
    expect(kase.matter_id).toBe(ids.preferredMatter);
    ids.case = kase.id;
    const emails = await notified(item.id);
    expect(emails).toContain("preferred@lawfirm.test");
    expect(emails).not.toContain("firmwide@lawfirm.test");
    const events = await db().selectFrom("event_log").select(["event", "detail"]).where("inbox_item_id", "=", item.id).execute();
    expect(events).toContainEqual({ event: "jurisdiction preference applied", detail: "California shipping" });
    // The inbox card names it.
    expect((await a.get(`/api/v1/inbox/${item.id}/card`)).body.preference).toEqual({ id: ids.applies, name: "California shipping" });
    // The other firm never sees the item, nor the preference through it.
    expect((await b.get(`/api/v1/inbox/${item.id}/card`)).status).toBe(404);
  });

  it.runIf(backend === "postgres")("reads a docket's preferences, match, rule and recorded envelope in one statement, as in several", async () => {
    const database = running.ctx.database;
    const item = await db().selectFrom("inbox_item").select(["id", "firm_id"]).where("jurisdiction_preference_id", "=", ids.applies!).executeTakeFirstOrThrow();
    const kase = await db().selectFrom("court_case").select(["id", "case_number"]).where("id", "=", ids.case!).executeTakeFirstOrThrow();
    const documents = await db().selectFrom("document").select("court_document_id").where("processed_from_id", "=", item.id).execute();
    const courtDocumentIds = documents.map((d) => d.court_document_id).filter((id): id is string => Boolean(id));
    const other = (await db().selectFrom("firm").select("id").where("id", "!=", item.firm_id).executeTakeFirstOrThrow()).id;
    const base = { firmId: item.firm_id, itemId: item.id, itemCaseId: null, courtId: "cand", docketNumber: kase.case_number, courtDocumentIds };
    const queries: DocketQuery[] = [
      base,
      // Another item with the same documents is a duplicate of this one.
      { ...base, itemId: "no-such-item" },
      { ...base, itemId: "no-such-item", courtDocumentIds: [] },
      { ...base, courtId: "ded" },
      { ...base, courtId: "zzzz" },
      { ...base, courtId: null },
      { ...base, courtId: null, itemCaseId: kase.id },
      { ...base, firmId: other },
    ];
    const inOne = await Promise.all(queries.map((query) => readDocket(database, query)));
    // The same reads one by one, as on SQLite.
    const inSeveral = await Promise.all(queries.map((query) => readDocket({ ...database, dialect: "sqlite" }, query)));
    expect(inOne).toEqual(inSeveral);
    expect(inOne[0]).toMatchObject({ match: { ignored: null, mapped: true, found: kase.id }, caseId: kase.id, recorded: { caseId: kase.id, earlier: null } });
    expect(inOne[0]!.preferences.map((p) => p.id)).toContain(ids.applies);
    expect(inOne[0]!.groups.length).toBeGreaterThan(0);
    expect(inOne[0]!.rule).not.toBeNull();
    expect(inOne[0]!.recorded!.envelopeId).not.toBeNull();
    expect(inOne[1]!.recorded).toMatchObject({ envelopeId: null, earlier: courtDocumentIds.length ? item.id : null });
    // Another firm reads none of this firm's.
    expect(inOne[7]).toMatchObject({ match: { found: null }, caseId: null, recorded: null });
    expect(inOne[7]!.preferences.map((p) => p.id)).not.toContain(ids.applies);
    // An ignored case of the court wins over the case with its number.
    const ignored = {
      id: "ignored-in-one",
      firm_id: item.firm_id,
      name: kase.case_number,
      name_normalized: normaliseCaseNumber(kase.case_number),
      ecfx_jurisdiction_id: "cand",
    };
    // The schema's type leaves out the entity's own columns.
    await db()
      .insertInto("ignored_case")
      .values({ ...ignored, created_at: Date.now(), updated_at: Date.now() } as typeof ignored)
      .execute();
    try {
      const withIgnored = await readDocket(database, base);
      expect(withIgnored).toEqual(await readDocket({ ...database, dialect: "sqlite" }, base));
      expect(withIgnored).toMatchObject({ match: { ignored: ignored.id, found: null }, caseId: null, recorded: null });
    } finally {
      await db().deleteFrom("ignored_case").where("id", "=", ignored.id).execute();
    }
  });

  it("skips a preference once disabled: the next one applies, and the firm's own notification rules", async () => {
    expect((await a.request("PATCH", `${PATH}/${ids.applies}`, { json: { enabled: false } })).status).toBe(200);
    const item = await upload("after-disabling");
    expect(item.jurisdiction_preference_id).toBe(ids.everyCourt);
    // The same documents again: nobody is told twice; who would be is read as the mail job reads it.
    const firm = (await findFirm(running.ctx.database, item.firm_id))!;
    const input = await loadRecipientInput(running.ctx, firm, ids.case!, item.id);
    const copied = input.rules.flatMap((r) => r.include);
    expect(copied).toContain("firmwide@lawfirm.test");
    expect(copied).toContain("preferred@lawfirm.test");
  });

  it("applies none when no enabled preference matches", async () => {
    await a.request("PATCH", `${PATH}/${ids.everyCourt}`, { json: { enabled: false } });
    const item = await upload("no-preference");
    expect(item.jurisdiction_preference_id).toBeNull();
    expect((await a.get(`/api/v1/inbox/${item.id}/card`)).body.preference).toBeNull();
  });
});
