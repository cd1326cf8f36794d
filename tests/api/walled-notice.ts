// The rows a processed notice leaves behind, written the way the pipeline writes them, with a
// word of the test's choosing in each: its envelope (name, docket text), its document (name, the
// fetched file) and the copy filed in the firm's storage root, the mail sent about it, the event
// logged and the webhook delivery. The access matrices look for that word in every answer.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../../server/db/database";
import type { BlobStore } from "../../server/blobs/blob-store";
import { firmStorageRoot } from "../../server/dms/dms-targets";

export interface NoticeStore {
  db: Database["db"];
  blobs: BlobStore;
  /** ECFX_FILE_STORE_ROOT: each firm files under firm-<id> in it. */
  fileStoreRoot: string;
}

const PARSED = JSON.stringify({ kind: "notice", notice: { dockets: [], court_id: "nysd", sent_at: null } });

/** Marks an uploaded message as a processed notice on a case, its subject and text carrying `word`. */
export async function processedNotice(store: NoticeStore, itemId: string, values: { caseId?: string; parentId?: string; docketIndex?: number; word: string }) {
  await store.db
    .updateTable("inbox_item")
    .set({
      ...(values.caseId ? { case_id: values.caseId } : {}),
      ...(values.parentId ? { parent_id: values.parentId, docket_index: values.docketIndex ?? 0 } : {}),
      subject: `Notice ${values.word}`,
      snippet: `Order in ${values.word}`,
      disposition: "Processed",
      status: "Succeeded",
      parsed: PARSED,
    })
    .where("id", "=", itemId)
    .execute();
}

/** The notice's envelope on its case. */
export async function insertEnvelope(store: NoticeStore, n: { firmId: number; itemId: string; caseId: string; word: string }): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await store.db
    .insertInto("envelope")
    .values({
      id,
      firm_id: n.firmId,
      inbox_item_id: n.itemId,
      case_id: n.caseId,
      ecfx_jurisdiction_id: "nysd",
      name: `Order ${n.word}`,
      date: null,
      court_envelope_id: null,
      filed_by: "",
      service_contacts: "[]",
      docket_text: `ORDER granting ${n.word}`,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** The envelope's document, fetched, and its copy filed in the firm's own storage root. */
export async function insertDocument(
  store: NoticeStore,
  n: { firmId: number; itemId: string; envelopeId: string; storagePolicyId: string; word: string },
): Promise<{ document: string; dmsRecord: string }> {
  const now = Date.now();
  const content = Buffer.from(`%PDF-1.4 ${n.word}`);
  const fileId = await store.blobs.put(content, "application/pdf", now);
  const document = randomUUID();
  await store.db
    .insertInto("document")
    .values({
      id: document,
      firm_id: n.firmId,
      envelope_id: n.envelopeId,
      processed_from_id: n.itemId,
      number: 1,
      name: `Order ${n.word}`,
      date: null,
      sealed: 0,
      court_document_id: null,
      url: null,
      file_id: fileId,
      fetch_status: "fetched",
      fetch_error: null,
      uploaded: 0,
      stamped_by_court: 0,
      dms_status: "succeeded",
      created_at: now,
    })
    .execute();
  const root = firmStorageRoot(store.fileStoreRoot, n.firmId);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(root, `Order ${n.word}.pdf`), content, { mode: 0o600 });
  const dmsRecord = randomUUID();
  await store.db
    .insertInto("dms_record")
    .values({
      id: dmsRecord,
      firm_id: n.firmId,
      inbox_item_id: n.itemId,
      document_id: document,
      storage_policy_id: n.storagePolicyId,
      what: "document",
      status: "succeeded",
      location: `Order ${n.word}.pdf`,
      root: "",
      error: null,
      attempts: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { document, dmsRecord };
}

/** The mail sent about the notice, the event logged for it and its webhook delivery. */
export async function insertTraces(
  store: NoticeStore,
  n: { firmId: number; itemId: string; webhookId: string; word: string },
): Promise<{ mail: string; event: string; delivery: string }> {
  const now = Date.now();
  const ids = { mail: randomUUID(), event: randomUUID(), delivery: randomUUID() };
  await store.db
    .insertInto("outbound_mail")
    .values({
      id: ids.mail,
      firm_id: n.firmId,
      purpose: "notice",
      to_addresses: JSON.stringify(["keeper@example.test"]),
      subject: `Notice ${n.word}`,
      text_body: `ORDER granting ${n.word}`,
      html_body: `<p>ORDER granting ${n.word}</p>`,
      raw: `Subject: Notice ${n.word}\r\n\r\nORDER granting ${n.word}\r\n`,
      transport: "captured",
      status: "sent",
      error: null,
      created_at: now,
      inbox_item_id: n.itemId,
      message_id: `<${randomUUID()}@example.test>`,
    })
    .execute();
  await store.db
    .insertInto("event_log")
    .values({ id: ids.event, firm_id: n.firmId, inbox_item_id: n.itemId, level: "INFO", event: "received", detail: `Received ${n.word}`, created_at: now })
    .execute();
  await store.db
    .insertInto("webhook_delivery")
    .values({
      id: ids.delivery,
      firm_id: n.firmId,
      webhook_id: n.webhookId,
      event: "notice.received",
      event_id: randomUUID(),
      payload_version: "v1",
      inbox_item_id: n.itemId,
      attempts: 1,
      status: "succeeded",
      last_status_code: 200,
      last_error: null,
      last_response: null,
      next_attempt_at: null,
      body: JSON.stringify({ event: "notice.received", data: { subject: `Notice ${n.word}` } }),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return ids;
}
