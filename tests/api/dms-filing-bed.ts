import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { expect } from "vitest";
import { HIERARCHY_LEVELS } from "../../app/common/resources/storage";
import { DMS_CREDENTIAL_TABLES, type DmsCredentialKind } from "../../app/common/resources/credentials";
import { findResource } from "../../app/common/resources";
import { SECRET_KEPT } from "../../app/common/resources/types";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import type { VendorTestServer } from "../dms/vendor-test-server";
import { type Backend, type RunningApi, DEMO, api, creator, login, startApi } from "./harness";

// A product instance that receives real notices over SMTP, fetches their documents from the
// court simulator and files them through a firm's DMS or practice-management credential: what
// the end-to-end filing tests of every vendor share. Each test file starts the vendors' local
// servers, points the product at them (`env`) and files through its own credentials.

const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
export const NAME_TEMPLATE = "{{document.number}} {{document.name}}";
export const MATTER_KEY = "M-501";
export const MATTER_NAME = "Peña v. Bluebonnet";

export type CredentialKey = keyof typeof DMS_CREDENTIAL_TABLES;

/** The notice's form of a case number ("2:24-cv-501" → "2:24-cv-00501"), the fixture's length. */
export const noticeNumber = (caseNumber: string) => caseNumber.replace(/-(\d+)$/, (_, n: string) => `-${n.padStart(5, "0")}`);
/** The folder the policy's "{{case.case_number}}" renders to: ":" is no folder character. */
export const caseFolder = (caseNumber: string) => caseNumber.replaceAll(":", "_");

const credentialDef = (key: CredentialKey) => {
  const def = findResource(key);
  if (!def) throw new Error(`no resource ${key}`);
  return def;
};
export const secretFields = (key: CredentialKey) =>
  credentialDef(key)
    .fields.filter((f) => f.secret)
    .map((f) => f.name);
export const apiPathOf = (key: CredentialKey) => credentialDef(key).apiPath!;

export interface FilingBed {
  running: RunningApi;
  worker: Worker;
  client: ReturnType<typeof api>;
  create: ReturnType<typeof creator>;
  /** The firm's matter every case of the bed belongs to (number MATTER_KEY). */
  matter: string;
  /** The fixture notice as another filing on `caseNumber` (its own Message-ID and document), sent over SMTP; `edit` changes its text first. */
  sendNotice(caseNumber: string, edit?: (raw: string) => string): Promise<void>;
  /** Until the pipeline and the storage job are done (notification is another part's business). */
  settled(): Promise<void>;
  /** The inbox item of a notice on the case, once its storage reached `status`. */
  itemOnCase(caseId: string, status: string): Promise<string>;
  /** The one DMS record of an inbox item. */
  recordOf(
    itemId: string,
  ): Promise<Record<string, unknown> & { status: string; location: string | null; link: string | null; error: string | null; document_id: string | null }>;
  /** A case of its own on a policy that files documents through the credential. */
  caseFiledThrough(
    credentialId: string,
    caseNumber: string,
    properties?: Record<string, string>,
    documentPath?: string,
  ): Promise<{ caseId: string; policy: string }>;
  /** A fetched document's name and bytes. */
  fetchedBytes(documentId: string): Promise<{ name: string; bytes: Buffer }>;
  /** Asserts the credential's secrets are sealed in its row and never answered; its id. */
  createSealedCredential(key: CredentialKey, settings: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startFilingBed(backend: Backend, env: Record<string, string>): Promise<FilingBed> {
  const simulator: CourtSimulator = await startCourtSimulator();
  const running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_DMS_TIMEOUT_MS: "10000", ...env } });
  const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
  const smtpPort = await listen(smtp, 0, "127.0.0.1");
  const worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
  const db = () => running.ctx.database.db;
  let messageTag = 0;

  const client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
  const create = creator(client);
  const jurisdiction = await create("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
  const timekeeper = await create("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
  const firmClient = await create("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-501" });
  const matter = await create("/api/v1/matter", { name: MATTER_NAME, unique_key: MATTER_KEY, client_id: firmClient });
  // No firm-wide policy: each case names its own.
  const hierarchy = await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: [...HIERARCHY_LEVELS], storage_policy_id: null });
  expect(hierarchy.status).toBe(200);

  const sendNotice = async (caseNumber: string, edit: (raw: string) => string = (raw) => raw) => {
    const tag = String(++messageTag).padStart(2, "0");
    const raw = Buffer.from(
      edit(FIXTURE)
        .replace("<4100001@", `<41000${tag}@`)
        .replace("doc1/175135791113", `doc1/1751357911${tag}`)
        .replaceAll("2:24-cv-00123", noticeNumber(caseNumber)),
      "latin1",
    );
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.gov", to: [DEMO_INBOX] }, raw });
  };

  const settled = async () => {
    for (let i = 0; i < 150; i++) {
      await worker.drain();
      const left = await db().selectFrom("job").select("id").where("kind", "!=", "notify-inbox-item").execute();
      if (left.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the pipeline did not settle");
  };

  const itemOnCase = async (caseId: string, status: string) => {
    let item: { id: string; dms_status: string } | undefined;
    for (let i = 0; i < 150 && item?.dms_status !== status; i++) {
      await worker.drain();
      item = await db().selectFrom("inbox_item").select(["id", "dms_status"]).where("case_id", "=", caseId).executeTakeFirst();
      if (item?.dms_status !== status) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(item?.dms_status).toBe(status);
    return item!.id;
  };

  const recordOf = async (itemId: string) => {
    const records = await db().selectFrom("dms_record").selectAll().where("inbox_item_id", "=", itemId).execute();
    expect(records).toHaveLength(1);
    return records[0]! as unknown as Awaited<ReturnType<FilingBed["recordOf"]>>;
  };

  const caseFiledThrough: FilingBed["caseFiledThrough"] = async (credentialId, caseNumber, properties = {}, documentPath = "{{case.case_number}}") => {
    const policy = await create("/api/v1/storage-policy", {
      name: `Policy ${credentialId.slice(0, 8)} ${caseNumber}`,
      dms_credential_id: credentialId,
      store_documents: true,
      store_email: "none",
      document_path: documentPath,
      document_name: NAME_TEMPLATE,
      document_properties: properties,
    });
    const caseId = await create("/api/v1/case", {
      name: `Peña Industries v. ${caseNumber}`,
      case_number: caseNumber,
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
      storage_policy_id: policy,
    });
    return { caseId, policy };
  };

  const fetchedBytes = async (documentId: string) => {
    const document = await db().selectFrom("document").select(["file_id", "name"]).where("id", "=", documentId).executeTakeFirstOrThrow();
    return { name: document.name, bytes: await running.ctx.blobs.read(document.file_id!) };
  };

  const createSealedCredential = async (key: CredentialKey, settings: Record<string, unknown>) => {
    const id = await create(apiPathOf(key), { name: `${key} filing`, ...settings });
    const secrets = secretFields(key);
    expect(secrets.length).toBeGreaterThan(0);
    const read = await client.get(`${apiPathOf(key)}/${id}`);
    expect(read.status).toBe(200);
    const row = (await db()
      .selectFrom(DMS_CREDENTIAL_TABLES[key] as DmsCredentialKind as "box_client_credential_grant_credential")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    for (const field of secrets) {
      if (!settings[field]) {
        // A secret left empty is no secret kept.
        expect(read.body[field], field).toBeNull();
        continue;
      }
      expect(read.body[field], field).toBe(SECRET_KEPT);
      expect(String(row[field]), field).toMatch(/^sb1\./);
      expect(String(row[field])).not.toContain(String(settings[field]));
    }
    // What is no secret comes back as it was typed.
    for (const [field, value] of Object.entries(settings))
      if (!secrets.includes(field) && typeof value === "string") expect(read.body[field], field).toBe(value);
    return id;
  };

  return {
    running,
    worker,
    client,
    create,
    matter,
    sendNotice,
    settled,
    itemOnCase,
    recordOf,
    caseFiledThrough,
    fetchedBytes,
    createSealedCredential,
    async close() {
      await worker.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await running.close();
      await simulator.close();
    },
  };
}

/** What a vendor's stand-in holds in the case's folder. */
export const heldFor = (server: VendorTestServer, caseNumber: string) => server.documents().filter((d) => d.folder.at(-1) === caseFolder(caseNumber));

/**
 * A notice on the case is throttled by the vendor (`throttle` arms the stand-in for one 429 with
 * Retry-After `seconds`): the filing is delayed at least that long, nothing is held, and once the
 * wait is over the next attempt files it.
 */
export async function expectThrottleHonoured(
  bed: FilingBed,
  filing: { caseId: string; caseNumber: string; held: () => unknown[]; violations: () => string[] },
  throttle: (seconds: number) => void,
): Promise<void> {
  const db = bed.running.ctx.database.db;
  throttle(120);
  const sentAt = Date.now();
  await bed.sendNotice(filing.caseNumber);
  const itemId = await bed.itemOnCase(filing.caseId, "delayed");
  const job = await db.selectFrom("job").select(["id", "run_at"]).where("kind", "=", "store-inbox-item").where("ref_id", "=", itemId).executeTakeFirstOrThrow();
  expect(Number(job.run_at)).toBeGreaterThanOrEqual(sentAt + 120_000);
  expect(await bed.recordOf(itemId)).toMatchObject({ status: "delayed", attempts: 1 });
  expect(filing.held()).toEqual([]);

  // The two minutes are over: the waiting job runs again.
  await db.updateTable("job").set({ run_at: Date.now() }).where("id", "=", job.id).execute();
  await bed.settled();
  await bed.itemOnCase(filing.caseId, "succeeded");
  expect(await bed.recordOf(itemId)).toMatchObject({ status: "succeeded", attempts: 2, error: null });
  expect(filing.held()).toHaveLength(1);
  expect(filing.violations()).toEqual([]);
}

/**
 * A notice on the case meets a refusal no retry can mend (`refuse` arms the stand-in): the filing
 * fails at its first attempt with the vendor's `reason`, the firm's DMS failure report says so,
 * and once requeued it is filed, with the link the vendor holds.
 */
export async function expectRefusalThenRequeue(
  bed: FilingBed,
  filing: { caseId: string; caseNumber: string; held: () => { link: string }[]; violations: () => string[] },
  refuse: () => void,
  reason: RegExp,
): Promise<void> {
  const db = bed.running.ctx.database.db;
  const firm = (await bed.client.get("/api/v1/firm")).body;
  expect((await bed.client.put(`/api/v1/firm/${firm.id}`, { ...firm, dms_failure_report_emails: ["dms-admin@lawfirm.test"] })).status).toBe(200);
  refuse();
  await bed.sendNotice(filing.caseNumber);
  const itemId = await bed.itemOnCase(filing.caseId, "failed");
  const record = await bed.recordOf(itemId);
  expect(record).toMatchObject({ status: "failed", attempts: 1 });
  expect(record.error).toMatch(reason);
  const events = (await db.selectFrom("event_log").select("event").where("inbox_item_id", "=", itemId).execute()).map((e) => e.event);
  expect(events).toContain("storage failed");
  expect(events).not.toContain("storage delayed");
  const report = await db.selectFrom("outbound_mail").selectAll().where("purpose", "=", "dms-failure").where("inbox_item_id", "=", itemId).execute();
  expect(report).toHaveLength(1);
  expect(JSON.parse(report[0]!.to_addresses)).toEqual(["dms-admin@lawfirm.test"]);
  expect(report[0]!.text_body).toMatch(reason);
  expect(filing.held()).toEqual([]);

  const requeued = await bed.client.post("/api/v1/inbox/requeue", { ids: [itemId] });
  expect(requeued.status).toBe(200);
  expect(requeued.body).toEqual({ done: [itemId], skipped: [] });
  await bed.settled();
  await bed.itemOnCase(filing.caseId, "succeeded");
  const stored = await bed.recordOf(itemId);
  expect(stored).toMatchObject({ status: "succeeded", error: null });
  expect(filing.held().map((d) => d.link)).toEqual([stored.link]);
  expect(filing.violations()).toEqual([]);
}
