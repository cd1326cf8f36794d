import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIERARCHY_LEVELS } from "../../app/common/resources/storage";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { storeInboxItem } from "../../server/filing/store-inbox-item";
import { readStorageStart, recordsOfItem } from "../../server/filing/filing-reads";
import { policyChain, resolveStoragePolicy } from "../../server/filing/policy-resolution";
import { rawMessageOf } from "../../server/filing/filing-data";
import { credentialKind } from "../../server/dms/dms-targets";
import { loadNoticeContext } from "../../server/db/case-context";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// Where documents go, end to end: notices in over SMTP, documents fetched from the court
// simulator, filed through the storage policy the firm's hierarchy picks into folders under
// ECFX_FILE_STORE_ROOT, failures retried, reported and requeued.

const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
const DEFAULT_ORDER = [...HIERARCHY_LEVELS];
const NAME_TEMPLATE = "{{#if document}}{{document.number}} {{document.name}}{{else}}Notice {{envelope.date}}{{/if}}";

/** The fixture as another filing: its own Message-ID and document id, on the case numbered `caseNumber` (same length). */
function variant(n: number, caseNumber = "2:24-cv-00123"): Buffer {
  const tag = String(n).padStart(2, "0");
  return Buffer.from(
    FIXTURE.replace("<4100001@", `<41000${tag}@`).replace("doc1/175135791113", `doc1/1751357911${tag}`).replaceAll("2:24-cv-00123", caseNumber),
    "latin1",
  );
}

describe.each(backends)("storage policies and the file-system DMS (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let storeRoot = "";
  /** The demo firm's own root inside the store: every credential folder is below it. */
  let firmRoot = "";
  let client: ReturnType<typeof api>;
  const ids: Record<string, string> = {};

  const db = () => running.ctx.database.db;

  beforeAll(async () => {
    storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-dms-"));
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_FILE_STORE_ROOT: storeRoot } });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    smtpPort = await listen(smtp, 0, "127.0.0.1");
    closeSmtp = () => new Promise((resolve) => smtp.close(() => resolve()));
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);

    const admin = await login(running.url, DEMO.admin);
    client = api(running.url, admin.access_token);
    const demoFirm = await running.ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow();
    firmRoot = path.join(storeRoot, `firm-${demoFirm.firm_id}`);
    const create = async (segment: string, body: Record<string, unknown>) => {
      const res = await client.post(`/api/v1/${segment}`, body);
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const jurisdiction = await create("jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
    const timekeeper = await create("timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
    const folders = { firmStore: "firm-a", caseStore: "case-b", clientStore: "client-c", blockedStore: "blocked" };
    for (const [key, field] of Object.entries(folders)) ids[key] = await create("generic-credential", { name: key, field });
    ids.firmPolicy = await create("storage-policy", {
      name: "Firm policy",
      dms_credential_id: ids.firmStore,
      store_documents: true,
      store_email: "eml",
      document_path: "{{client.name}}/{{case.case_number}}",
      document_name: NAME_TEMPLATE,
      document_properties: { Matter: "{{matter.unique_key}}", Source: "ECFX" },
    });
    ids.casePolicy = await create("storage-policy", {
      name: "Case policy",
      dms_credential_id: ids.caseStore,
      store_email: "pdf",
      document_path: "{{case.case_number}}",
      document_name: NAME_TEMPLATE,
    });
    ids.clientPolicy = await create("storage-policy", {
      name: "Client policy",
      dms_credential_id: ids.clientStore,
      store_email: "none",
      document_path: "{{client.unique_key}}",
      document_name: NAME_TEMPLATE,
    });
    ids.blockedPolicy = await create("storage-policy", {
      name: "Blocked policy",
      dms_credential_id: ids.blockedStore,
      store_email: "none",
      document_path: "{{case.case_number}}",
    });

    const plainClient = await create("client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-77" });
    const policyClient = await create("client", { name: "Lone Star Holdings", unique_key: "C-88", storage_policy_id: ids.clientPolicy });
    const plainMatter = (ids.plainMatter = await create("matter", { name: "Peña v. Bluebonnet", unique_key: "M-77", client_id: plainClient }));
    const policyMatter = await create("matter", { name: "Peña v. Lone Star", unique_key: "M-88", client_id: policyClient });
    const kase = (number: string, matter: string, policy?: string) =>
      create("case", {
        name: `Peña Industries v. ${number}`,
        case_number: number,
        matter_id: matter,
        jurisdiction_id: jurisdiction,
        assigned_timekeepers: [timekeeper],
        storage_policy_id: policy,
      });
    ids.firmCase = await kase("2:24-cv-123", plainMatter);
    ids.caseCase = await kase("2:24-cv-124", plainMatter, ids.casePolicy);
    ids.orderCase = await kase("2:24-cv-125", policyMatter, ids.casePolicy);
    ids.blockedCase = await kase("2:24-cv-126", plainMatter, ids.blockedPolicy);

    expect((await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: ids.firmPolicy })).status).toBe(200);
  });

  afterAll(async () => {
    await worker?.stop();
    await closeSmtp?.();
    await running?.close();
    await simulator?.close();
    fs.rmSync(storeRoot, { recursive: true, force: true });
  });

  const send = (raw: Buffer) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.gov", to: [DEMO_INBOX] }, raw });

  /** Until the pipeline and the storage job are done (notification is another part's business). */
  const settled = async () => {
    for (let i = 0; i < 150; i++) {
      await worker.drain();
      const left = await db().selectFrom("job").select("id").where("kind", "!=", "notify-inbox-item").execute();
      if (left.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the pipeline did not settle");
  };

  /** Sends a notice and returns its inbox item once processed and filed. */
  const deliver = async (raw: Buffer) => {
    const before = await db().selectFrom("inbox_item").select("id").execute();
    await send(raw);
    await settled();
    const item = await db()
      .selectFrom("inbox_item")
      .selectAll()
      .where("id", "not in", before.length ? before.map((b) => b.id) : [""])
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ status: "Succeeded", disposition: "Processed" });
    return item;
  };

  const recordsOf = (itemId: string) => db().selectFrom("dms_record").selectAll().where("inbox_item_id", "=", itemId).orderBy("what").execute();
  const eventsOf = async (itemId: string) =>
    await db().selectFrom("event_log").select(["event", "detail"]).where("inbox_item_id", "=", itemId).orderBy("created_at").orderBy("id").execute();
  const fileAt = (folder: string, location: string) => fs.readFileSync(path.join(firmRoot, folder, location));
  const rawOf = async (itemId: string) =>
    (await db().selectFrom("inbox_item").select("raw_content").where("id", "=", itemId).executeTakeFirstOrThrow()).raw_content;

  it("files the documents and the original e-mail through the firm's policy, at the path its templates name", async () => {
    const raw = variant(1);
    const item = await deliver(raw);
    ids.firstItem = item.id;
    expect(item.dms_status).toBe("succeeded");
    const records = await recordsOf(item.id);
    expect(records.map((r) => [r.what, r.status, r.storage_policy_id])).toEqual([
      ["document", "succeeded", ids.firmPolicy],
      ["notice", "succeeded", ids.firmPolicy],
    ]);
    const [docRecord, noticeRecord] = records;
    expect(docRecord!.location).toBe("Bluebonnet Widgets Inc/2_24-cv-123/0 Main Document.pdf");
    const document = await db().selectFrom("document").selectAll().where("id", "=", docRecord!.document_id!).executeTakeFirstOrThrow();
    expect(document.dms_status).toBe("succeeded");
    expect(fileAt("firm-a", docRecord!.location!).equals(await running.ctx.blobs.read(document.file_id!))).toBe(true);
    const sidecar = JSON.parse(fileAt("firm-a", `${docRecord!.location}.properties.json`).toString("utf8"));
    // Property values are templates too: the matter's number, not the braces.
    expect(sidecar).toEqual({ Matter: "M-77", Source: "ECFX" });

    expect(noticeRecord!.location).toBe("Bluebonnet Widgets Inc/2_24-cv-123/Notice 2024-03-05.eml");
    expect(fileAt("firm-a", noticeRecord!.location!).equals(item.raw_content)).toBe(true);

    const events = await eventsOf(item.id);
    const stored = events.filter((e) => e.event === "stored");
    expect(stored).toHaveLength(2);
    expect(stored[0]!.detail).toContain(docRecord!.location!);
    expect(events.map((e) => e.event)).toContain("storage succeeded");
  });

  it.runIf(backend === "postgres")(
    "reads a filed notice with its case, matter, client, court, documents and timekeepers in one statement, as in several",
    async () => {
      const database = running.ctx.database;
      const item = await db().selectFrom("inbox_item").select(["id", "firm_id", "case_id"]).where("id", "=", ids.firstItem!).executeTakeFirstOrThrow();
      const inOne = await loadNoticeContext(database, item.firm_id, item.id);
      // The same reads one by one, as on SQLite.
      const inSeveral = await loadNoticeContext({ ...database, dialect: "sqlite" }, item.firm_id, item.id);
      expect(inOne).toEqual(inSeveral);
      expect(inOne).toMatchObject({ matter: { unique_key: "M-77" }, client: { unique_key: "C-77" }, jurisdiction: { name: "E.D. Tex." } });
      expect(inOne!.documents.length).toBeGreaterThan(0);
      expect(inOne!.timekeepers).toEqual([{ name: "Adaeze Okafor", email: "aokafor@lawfirm.test" }]);
      // Without its envelope the notice is read on the case it was filed on; another firm's reading finds nothing.
      await expect(loadNoticeContext(database, item.firm_id, "no-such-item", item.case_id)).resolves.toEqual(
        await loadNoticeContext({ ...database, dialect: "sqlite" }, item.firm_id, "no-such-item", item.case_id),
      );
      expect((await loadNoticeContext(database, item.firm_id, "no-such-item", item.case_id))?.envelope).toBeNull();
      const other = (await db().selectFrom("firm").select("id").where("id", "!=", item.firm_id).executeTakeFirstOrThrow()).id;
      expect(await loadNoticeContext(database, other, item.id, item.case_id)).toBeNull();
    },
  );

  it("never stores a document twice for the same policy when the job runs again", async () => {
    const before = await recordsOf(ids.firstItem!);
    await storeInboxItem(running.ctx, ids.firstItem!, 1);
    const after = await recordsOf(ids.firstItem!);
    expect(after).toEqual(before);
    expect(fs.readdirSync(path.join(firmRoot, "firm-a", "Bluebonnet Widgets Inc", "2_24-cv-123")).filter((f) => !f.endsWith(".json"))).toHaveLength(2);
  });

  it("lets a case-level policy override the firm's, and renders the notice as a PDF", async () => {
    const item = await deliver(variant(2, "2:24-cv-00124"));
    ids.pdfItem = item.id;
    const records = await recordsOf(item.id);
    expect(records.map((r) => [r.what, r.status, r.storage_policy_id])).toEqual([
      ["document", "succeeded", ids.casePolicy],
      ["notice", "succeeded", ids.casePolicy],
    ]);
    expect(records[0]!.location).toBe("2_24-cv-124/0 Main Document.pdf");
    const pdf = fileAt("case-b", records[1]!.location!);
    expect(records[1]!.location).toMatch(/\.pdf$/);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(fs.existsSync(path.join(firmRoot, "firm-a", "Bluebonnet Widgets Inc", "2_24-cv-124"))).toBe(false);
  });

  it("follows the firm's order: the level last in the hierarchy wins", async () => {
    const byDefault = await deliver(variant(3, "2:24-cv-00125"));
    expect((await recordsOf(byDefault.id)).map((r) => r.storage_policy_id)).toEqual([ids.casePolicy, ids.casePolicy]);

    const clientLast = ["firm", "location", "practice_group", "matter", "case", "client"];
    const saved = await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: clientLast, storage_policy_id: ids.firmPolicy });
    expect(saved.status).toBe(200);
    expect((await client.get("/api/v1/firm/storage-hierarchy")).body).toMatchObject({ hierarchy: clientLast, storage_policy_id: ids.firmPolicy });
    try {
      const reordered = await deliver(variant(4, "2:24-cv-00125"));
      const records = await recordsOf(reordered.id);
      // The client's policy stores documents only.
      expect(records.map((r) => [r.what, r.storage_policy_id])).toEqual([["document", ids.clientPolicy]]);
      expect(records[0]!.location).toBe("C-88/0 Main Document.pdf");
      expect(fs.existsSync(path.join(firmRoot, "client-c", "C-88", "0 Main Document.pdf"))).toBe(true);
    } finally {
      await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: ids.firmPolicy });
    }
  });

  it("stores a second copy through the additional policy, once each even when the chain loops back", async () => {
    const create = async (segment: string, body: Record<string, unknown>) => (await client.post(`/api/v1/${segment}`, body)).body.id as string;
    const first = await create("storage-policy", {
      name: "Mirror one",
      dms_credential_id: await create("generic-credential", { name: "mirror one", field: "mirror-1" }),
      document_path: "{{case.case_number}}",
    });
    const second = await create("storage-policy", {
      name: "Mirror two",
      dms_credential_id: await create("generic-credential", { name: "mirror two", field: "mirror-2" }),
      document_path: "copies",
      additional_storage_policy_id: first,
    });
    expect((await client.request("PATCH", `/api/v1/storage-policy/${first}`, { json: { additional_storage_policy_id: second } })).status).toBe(200);
    const timekeeper = await create("timekeeper", { full_name: "Mira Mirror", email: "mira@lawfirm.test" });
    const jurisdiction = (await db().selectFrom("court_case").select("jurisdiction_id").where("id", "=", ids.firmCase!).executeTakeFirstOrThrow())
      .jurisdiction_id;
    await create("case", {
      name: "Mirror case",
      case_number: "2:24-cv-127",
      matter_id: ids.plainMatter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
      storage_policy_id: first,
    });

    const item = await deliver(variant(7, "2:24-cv-00127"));
    ids.mirrorItem = item.id;
    const records = await recordsOf(item.id);
    expect(records).toHaveLength(2);
    const at = (policy: string) => records.find((r) => r.storage_policy_id === policy)!;
    expect(at(first)).toMatchObject({ status: "succeeded", location: "2_24-cv-127/2024-03-05 Main Document.pdf" });
    expect(at(second)).toMatchObject({ status: "succeeded", location: "copies/2024-03-05 Main Document.pdf" });
    expect(fileAt("mirror-1", at(first).location!).equals(fileAt("mirror-2", at(second).location!))).toBe(true);
  });

  it.runIf(backend === "postgres")(
    "reads an item with its policies, their credentials, its records, content types and message in one statement, as one by one",
    async () => {
      const database = running.ctx.database;
      // The policies' chain loops back (mirror), a notice is stored as PDF (no message read), and as .eml.
      for (const itemId of [ids.firstItem!, ids.pdfItem!, ids.mirrorItem!]) {
        const inOne = (await readStorageStart(database, itemId))!;
        const oneByOne = (await readStorageStart({ ...database, dialect: "sqlite" }, itemId))!;
        expect({ ...inOne, known: null }).toEqual(oneByOne);
        const known = inOne.known!;
        const firmId = inOne.item.firm_id;
        const resolved = (await resolveStoragePolicy(db(), firmId, oneByOne))!;
        expect(await resolveStoragePolicy(db(), firmId, inOne, known.policies)).toEqual(resolved);
        const chain = await policyChain(db(), firmId, resolved.policy);
        expect(await policyChain(db(), firmId, resolved.policy, known.policies)).toEqual(chain);
        for (const policy of chain) {
          const field = await db().selectFrom("generic_credential").select("field").where("id", "=", policy.dms_credential_id).executeTakeFirst();
          expect(known.credentials.get(policy.dms_credential_id)).toEqual({
            kind: await credentialKind(running.ctx, firmId, policy.dms_credential_id),
            field: field?.field ?? null,
          });
        }
        const byId = (records: { id: string }[]) => [...records].sort((a, b) => a.id.localeCompare(b.id));
        expect(byId(known.records)).toEqual(byId(await recordsOfItem(db(), itemId)));
        expect(known.records.length).toBeGreaterThan(0);
        const notice = (await loadNoticeContext(database, firmId, itemId))!;
        for (const document of notice.documents.filter((d) => d.file_id)) {
          const blob = await db().selectFrom("blob").select("content_type").where("sha256", "=", document.file_id!).executeTakeFirstOrThrow();
          expect(known.contentTypes.get(document.file_id!)).toBe(blob.content_type);
        }
        // Read when a policy the holders name or chain to stores it: the one that applies is picked after the read.
        const storesMessage = known.policies.some((policy) => policy.store_email === "eml");
        const raw = (await rawMessageOf(db(), itemId).executeTakeFirstOrThrow()).raw_content;
        expect(known.raw).toEqual(storesMessage ? raw : null);
      }
      expect(await readStorageStart(database, "no-such-item")).toBeUndefined();
    },
  );

  it("chooses another name when a filing not yet written holds the one free on disk", async () => {
    const folder = "Bluebonnet Widgets Inc/2_24-cv-123";
    // A record of another filing holds the next free name, as an attempt cut short before its write leaves it.
    const holder = {
      id: "holding-filing",
      firm_id: (await db().selectFrom("inbox_item").select("firm_id").where("id", "=", ids.firstItem!).executeTakeFirstOrThrow()).firm_id,
      inbox_item_id: ids.firstItem!,
      document_id: null,
      storage_policy_id: ids.casePolicy!,
      what: "notice",
      status: "writing",
      location: null,
      intended_location: `${folder}/0 Main Document (2).pdf`,
      intended_path: `firm-a/${folder}/0 Main Document (2).pdf`,
      content_hash: "0".repeat(64),
      error: null,
      attempts: 1,
      created_at: 0,
      updated_at: 0,
    };
    await db().insertInto("dms_record").values(holder).execute();
    try {
      const item = await deliver(variant(8));
      const document = (await recordsOf(item.id)).find((r) => r.what === "document")!;
      expect(document).toMatchObject({ status: "succeeded", location: `${folder}/0 Main Document (3).pdf` });
      expect(fs.existsSync(path.join(firmRoot, "firm-a", folder, "0 Main Document (2).pdf"))).toBe(false);
      expect(await db().selectFrom("dms_record").selectAll().where("id", "=", holder.id).executeTakeFirstOrThrow()).toMatchObject(holder);
    } finally {
      await db().deleteFrom("dms_record").where("id", "=", holder.id).execute();
    }
  });

  it("cancels storage when no policy applies, saying why", async () => {
    expect((await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: null })).status).toBe(200);
    try {
      const item = await deliver(variant(5));
      expect(item.dms_status).toBe("canceled");
      expect(await recordsOf(item.id)).toEqual([]);
      expect(await eventsOf(item.id)).toContainEqual({ event: "storage canceled", detail: "no storage policy applies" });
      const documents = await db().selectFrom("document").select("dms_status").where("processed_from_id", "=", item.id).execute();
      expect(documents.length).toBeGreaterThan(0);
      expect(documents.every((d) => d.dms_status === "canceled")).toBe(true);
    } finally {
      await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: ids.firmPolicy });
    }
  });

  it("fails a store no retry can mend at once, with a report, and succeeds once requeued", async () => {
    const firm = (await client.get("/api/v1/firm")).body;
    expect((await client.put(`/api/v1/firm/${firm.id}`, { ...firm, dms_failure_report_emails: ["dms-admin@lawfirm.test"] })).status).toBe(200);
    // A file where the credential's folder should be: no folder can be made there until someone moves it.
    fs.writeFileSync(path.join(firmRoot, "blocked"), "not a folder");

    await send(variant(6, "2:24-cv-00126"));
    let item: { id: string; dms_status: string } | undefined;
    for (let i = 0; i < 100 && item?.dms_status !== "failed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      item = await db().selectFrom("inbox_item").select(["id", "dms_status"]).where("case_id", "=", ids.blockedCase!).executeTakeFirst();
    }
    expect(item?.dms_status).toBe("failed");
    const itemId = item!.id;
    const [record] = await recordsOf(itemId);
    expect(record).toMatchObject({ status: "failed", attempts: 1 });
    expect(record!.error).toMatch(/not a folder/);
    const events = (await eventsOf(itemId)).map((e) => e.event);
    expect(events).toContain("storage failed");
    expect(events).not.toContain("storage delayed");
    const report = await db().selectFrom("outbound_mail").selectAll().where("purpose", "=", "dms-failure").where("inbox_item_id", "=", itemId).execute();
    expect(report).toHaveLength(1);
    expect(JSON.parse(report[0]!.to_addresses)).toEqual(["dms-admin@lawfirm.test"]);
    expect(report[0]!.subject).toContain("DMS storage failed");
    expect(report[0]!.text_body).toMatch(/not a folder/);

    fs.rmSync(path.join(firmRoot, "blocked"));
    const requeued = await client.post("/api/v1/inbox/requeue", { ids: [itemId, "no-such-item"] });
    expect(requeued.status).toBe(200);
    expect(requeued.body).toEqual({ done: [itemId], skipped: [{ id: "no-such-item", reason: expect.any(String) }] });
    await settled();
    // The report's own job sent it, once.
    const reports = await db().selectFrom("outbound_mail").select("status").where("purpose", "=", "dms-failure").where("inbox_item_id", "=", itemId).execute();
    expect(reports).toEqual([{ status: "captured" }]);
    const stored = await db().selectFrom("inbox_item").select("dms_status").where("id", "=", itemId).executeTakeFirstOrThrow();
    expect(stored.dms_status).toBe("succeeded");
    const [done] = await recordsOf(itemId);
    // The requeued attempt is counted with the record's first write of it, where the file goes.
    expect(done).toMatchObject({ status: "succeeded", error: null, location: "2_24-cv-126/2024-03-05 Main Document.pdf", attempts: 2 });
    expect(fs.existsSync(path.join(firmRoot, "blocked", done!.location!))).toBe(true);
  });

  it("records the last filing's success with the outcome when an earlier filing failed", async () => {
    const create = async (segment: string, body: Record<string, unknown>) => (await client.post(`/api/v1/${segment}`, body)).body.id as string;
    // The documents go where no folder can be made; the message, last, goes through the additional policy.
    fs.writeFileSync(path.join(firmRoot, "blocked-first"), "not a folder");
    const tail = await create("storage-policy", {
      name: "Message after",
      dms_credential_id: await create("generic-credential", { name: "message after", field: "message-after" }),
      store_documents: false,
      store_email: "eml",
      document_path: "{{case.case_number}}",
    });
    const first = await create("storage-policy", {
      name: "Documents first",
      dms_credential_id: await create("generic-credential", { name: "documents first", field: "blocked-first" }),
      store_email: "none",
      document_path: "{{case.case_number}}",
      additional_storage_policy_id: tail,
    });
    const timekeeper = await create("timekeeper", { full_name: "Lara Last", email: "lara@lawfirm.test" });
    const jurisdiction = (await db().selectFrom("court_case").select("jurisdiction_id").where("id", "=", ids.firmCase!).executeTakeFirstOrThrow())
      .jurisdiction_id;
    const caseId = await create("case", {
      name: "Last filing case",
      case_number: "2:24-cv-128",
      matter_id: ids.plainMatter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
      storage_policy_id: first,
    });

    await send(variant(9, "2:24-cv-00128"));
    let item: { id: string; dms_status: string } | undefined;
    for (let i = 0; i < 100 && item?.dms_status !== "failed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      item = await db().selectFrom("inbox_item").select(["id", "dms_status"]).where("case_id", "=", caseId).executeTakeFirst();
    }
    expect(item?.dms_status).toBe("failed");
    await settled();
    const records = await recordsOf(item!.id);
    expect(records.map((r) => [r.what, r.status, r.storage_policy_id, r.attempts])).toEqual([
      ["document", "failed", first, 1],
      ["notice", "succeeded", tail, 1],
    ]);
    expect(fileAt("message-after", records[1]!.location!).equals(await rawOf(item!.id))).toBe(true);
    const events = (await eventsOf(item!.id)).map((e) => e.event);
    expect(events.filter((e) => e === "stored")).toHaveLength(1);
    expect(events).toContain("storage failed");
    const documents = await db()
      .selectFrom("document")
      .select("dms_status")
      .where("processed_from_id", "=", item!.id)
      .where("file_id", "is not", null)
      .execute();
    expect(documents.map((d) => d.dms_status)).toEqual(["failed"]);
    fs.rmSync(path.join(firmRoot, "blocked-first"));
  });

  it("says 'Requeueing error occurred' when nothing could be requeued, and refuses read-only roles", async () => {
    const nothing = await client.post("/api/v1/inbox/requeue", { ids: ["no-such-item"] });
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toBe("Requeueing error occurred");
    expect((await client.post("/api/v1/inbox/requeue", { ids: [] })).status).toBe(400);
    const viewer = await login(running.url, DEMO.viewOnly);
    expect((await api(running.url, viewer.access_token).post("/api/v1/inbox/requeue", { ids: [ids.firstItem] })).status).toBe(403);
  });

  it("lists an item's storage records and serves the stored files to the firm only", async () => {
    const listed = await client.get(`/api/v1/inbox/${ids.firstItem}/dms`);
    expect(listed.status).toBe(200);
    expect(listed.body.dms_status).toBe("succeeded");
    const document = listed.body.records.find((r: { what: string }) => r.what === "document");
    expect(document).toMatchObject({
      status: "succeeded",
      storage_policy_name: "Firm policy",
      document_name: "Main Document",
      location: "Bluebonnet Widgets Inc/2_24-cv-123/0 Main Document.pdf",
    });

    const own = await client.get(`/api/v1/dms-record/${document.id}/content`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toContain("application/pdf");
    expect(Buffer.from(own.bytes).equals(fileAt("firm-a", document.location))).toBe(true);
    const notice = listed.body.records.find((r: { what: string }) => r.what === "notice");
    const eml = await client.get(`/api/v1/dms-record/${notice.id}/content`);
    expect(eml.headers.get("content-type")).toContain("message/rfc822");
    expect(eml.headers.get("content-disposition")).toMatch(/^attachment/);

    const other = await login(running.url, DEMO.secondAdmin);
    const otherClient = api(running.url, other.access_token);
    expect((await otherClient.get(`/api/v1/dms-record/${document.id}/content`)).status).toBe(404);
    expect((await otherClient.get(`/api/v1/inbox/${ids.firstItem}/dms`)).status).toBe(404);
    expect((await client.get("/api/v1/dms-record/no-such-record/content")).status).toBe(404);
  });

  it("hides stored files from a user walled out of the case", async () => {
    const record = (await recordsOf(ids.firstItem!)).find((r) => r.what === "document")!;
    const timekeeper = (await client.post("/api/v1/timekeeper", { full_name: "Wendy Walled", email: "wendy@lawfirm.test" })).body.id as string;
    await db().updateTable("app_user").set({ timekeeper_id: timekeeper }).where("email", "=", DEMO.manager).execute();
    const wall = await client.post("/api/v1/ethical-wall", {
      name: "Keep Wendy out",
      type: "exclusionary",
      matter_id: ids.plainMatter,
      timekeepers: [timekeeper],
    });
    expect(wall.status).toBe(201);
    const firmId = (await db().selectFrom("inbox_item").select("firm_id").where("id", "=", ids.firstItem!).executeTakeFirstOrThrow()).firm_id;
    const asManager = api(running.url, (await login(running.url, DEMO.manager)).access_token);
    await db().updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firmId).execute();
    try {
      expect((await asManager.get(`/api/v1/dms-record/${record.id}/content`)).status).toBe(404);
    } finally {
      await db().updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firmId).execute();
    }
    expect((await asManager.get(`/api/v1/dms-record/${record.id}/content`)).status).toBe(200);
  });

  it("refuses a policy whose path, name or property template cannot render", async () => {
    const bad = await client.post("/api/v1/storage-policy", {
      name: "Broken templates",
      dms_credential_id: ids.firmStore,
      document_path: "{{client.nmae}}",
      document_properties: { Matter: "{{#each x}}{{/each}}" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fieldErrors).sort()).toEqual(["document_path", "document_properties"]);
  });

  it("validates the hierarchy: the six levels once each, a policy of the firm, firm write access", async () => {
    const bad = await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: ["firm", "case"], storage_policy_id: null });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.hierarchy).toEqual(["Error while updating order"]);
    const twice = await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: [...DEFAULT_ORDER.slice(1), "case"], storage_policy_id: null });
    expect(twice.status).toBe(400);
    const other = await login(running.url, DEMO.secondAdmin);
    const foreign = await api(running.url, other.access_token).put("/api/v1/firm/storage-hierarchy", {
      hierarchy: DEFAULT_ORDER,
      storage_policy_id: ids.firmPolicy,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fieldErrors.storage_policy_id).toHaveLength(1);
    const viewer = await login(running.url, DEMO.viewOnly);
    expect(
      (await api(running.url, viewer.access_token).put("/api/v1/firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: null })).status,
    ).toBe(403);
    expect((await client.get("/api/v1/firm/storage-hierarchy")).body).toMatchObject({ hierarchy: DEFAULT_ORDER, storage_policy_id: ids.firmPolicy });
  });

  it("has each filing's intended place on the disk before its file is written (decision 138)", async () => {
    const database = running.ctx.database;
    const own = database.commitsOnDisk;
    /** At each flush: the filings recorded as being written, and whether their file is there yet. */
    const seen: { path: string | null; written: boolean }[] = [];
    database.commitsOnDisk = async () => {
      const writing = await db().selectFrom("dms_record").select("intended_path").where("status", "=", "writing").execute();
      seen.push(...writing.map((r) => ({ path: r.intended_path, written: fs.existsSync(path.join(firmRoot, r.intended_path ?? "")) })));
      return own();
    };
    try {
      await deliver(variant(20));
    } finally {
      database.commitsOnDisk = own;
    }
    // The names of the first test's filings, numbered when that test ran first.
    expect(seen.map((s) => path.posix.basename(s.path ?? "").replace(/ \(\d+\)/, "")).sort()).toEqual(["0 Main Document.pdf", "Notice 2024-03-05.eml"]);
    expect(seen.filter((s) => s.written)).toEqual([]);
  });
});
