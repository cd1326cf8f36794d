import type { Kysely } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { type ProviderSettings, PermanentExtractionError } from "../extraction/title-client";
import { featureEnabled } from "../firm/entitled-features";
import { findFirm } from "../firm/firm-repository";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";

// AI title extraction (decision 051): once a document is fetched, and released by the wait for
// the court's stamp, a firm entitled to FAI_TITLE_EXTRACTION whose applied document processing
// settings turn extraction on with provider FAI gets the document renamed by its provider. The
// item waits for it like for a fetch, so filing and mail use the new name; a permanent failure
// keeps the name, says why in a WARNING, and lets the notice go on.

export const MAX_EXTRACTION_ATTEMPTS = 5;

/** The provider settings that apply to an item's documents, or undefined when nothing is to be asked. */
export async function titleExtractionFor(ctx: ServerContext, itemId: string, firmId: number): Promise<Partial<ProviderSettings> | undefined> {
  const firm = await findFirm(ctx.database, firmId);
  if (!firm || !featureEnabled(firm, "FAI_TITLE_EXTRACTION")) return undefined;
  const settings = await extractionSettingsOf(ctx.database.db, itemId);
  if (!settings?.extraction_enabled || settings.extraction_provider !== "FAI") return undefined;
  return {
    clientUrl: settings.extraction_client_url ?? undefined,
    authPath: settings.extraction_auth_path ?? undefined,
    clientId: settings.extraction_client_id ?? undefined,
    clientSecret: settings.extraction_client_secret ? revealSecret(ctx, settings.extraction_client_secret) : undefined,
    customerId: settings.extraction_customer_id ?? "",
    queueName: settings.extraction_queue_name ?? "",
  };
}

/** The stored client secret as typed; one whose key is gone is the firm's to type again. */
function revealSecret(ctx: ServerContext, stored: string): string {
  try {
    return ctx.secretBox.reveal(stored);
  } catch (error) {
    throw new PermanentExtractionError(message("filing:secretUnreadable"), { cause: error });
  }
}

/** The extraction part of the document processing settings of the preference applied to an item. */
function extractionSettingsOf(db: Kysely<DB>, itemId: string) {
  return db
    .selectFrom("inbox_item as i")
    .innerJoin("jurisdiction_preference as p", "p.id", "i.jurisdiction_preference_id")
    .innerJoin("document_processing as d", "d.id", "p.document_processing_id")
    .select([
      "d.extraction_enabled",
      "d.extraction_provider",
      "d.extraction_client_url",
      "d.extraction_auth_path",
      "d.extraction_client_id",
      "d.extraction_client_secret",
      "d.extraction_customer_id",
      "d.extraction_queue_name",
    ])
    .where("i.id", "=", itemId)
    .whereRef("d.firm_id", "=", "i.firm_id")
    .executeTakeFirst();
}

function complete(settings: Partial<ProviderSettings>): ProviderSettings {
  const { clientUrl, authPath, clientId, clientSecret } = settings;
  if (!clientUrl || !authPath || !clientId || !clientSecret) throw new PermanentExtractionError(message("errors:extraction.notConfigured"));
  return { clientUrl, authPath, clientId, clientSecret, customerId: settings.customerId ?? "", queueName: settings.queueName ?? "" };
}

type ItemRef = { id: string; firm_id: number };

/**
 * The extract-title job: asks the provider and renames the document, or records why not. Returns
 * the item to carry on once the document is done (renamed, or kept its name for good); throws to
 * be retried.
 */
export async function extractTitle(ctx: ServerContext, documentId: string, attempt: number): Promise<ItemRef | undefined> {
  const db = ctx.database.db;
  const doc = await db
    .selectFrom("document")
    .innerJoin("envelope", "envelope.id", "document.envelope_id")
    .select([
      "document.id",
      "document.firm_id",
      "document.processed_from_id",
      "document.number",
      "document.name",
      "document.court_document_id",
      "document.title_extraction",
      "envelope.docket_text",
    ])
    .where("document.id", "=", documentId)
    .executeTakeFirst();
  if (!doc) return undefined;
  // A job run again after a crash finds its document done and only carries the item on.
  if (doc.title_extraction !== "pending") return { id: doc.processed_from_id, firm_id: doc.firm_id };
  const settings = await titleExtractionFor(ctx, doc.processed_from_id, doc.firm_id);
  try {
    // Turned off (or the feature ended) since the fetch: the document keeps its name, nothing is asked.
    if (!settings) return await recordOutcome(ctx, doc, { status: null });
    // No PDF text reader in the product: the provider reads the docket text of the notice entry.
    const title = await ctx.titles.extractTitle(complete(settings), {
      document_name: doc.name,
      court_document_id: doc.court_document_id,
      text: doc.docket_text,
    });
    return await recordOutcome(ctx, doc, { status: "extracted", title });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof PermanentExtractionError) && attempt < MAX_EXTRACTION_ATTEMPTS) throw error;
    return recordOutcome(ctx, doc, { status: "failed", reason });
  }
}

/**
 * The job was given up for a reason of its own (the database, a crash loop): the document keeps
 * its name and says why, so the item is never left waiting for a title nobody will ask.
 */
export async function titleGivenUp(ctx: ServerContext, documentId: string, reason: string): Promise<ItemRef | undefined> {
  const doc = await ctx.database.db
    .selectFrom("document")
    .select(["id", "firm_id", "processed_from_id", "number", "name"])
    .where("id", "=", documentId)
    .executeTakeFirst();
  return doc ? recordOutcome(ctx, doc, { status: "failed", reason }) : undefined;
}

type Outcome = { status: null } | { status: "extracted"; title: string } | { status: "failed"; reason: string };

/** The document renamed, or its failure recorded, with the item's event; returns the item to carry on. */
async function recordOutcome(
  ctx: ServerContext,
  doc: { id: string; firm_id: number; processed_from_id: string; number: number; name: string },
  outcome: Outcome,
): Promise<ItemRef> {
  const at = ctx.clock.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const base = trx.updateTable("document").where("id", "=", doc.id).where("title_extraction", "=", "pending");
    if (outcome.status === "extracted") {
      await base.set({ name: outcome.title, title_extraction: "extracted", title_extraction_error: null }).execute();
      const detail = message("pipeline:events.titleExtracted", { number: doc.number, from: doc.name, to: outcome.title });
      await logEvent(trx, { firmId: doc.firm_id, inboxItemId: doc.processed_from_id, event: "title extracted", detail, at });
    } else if (outcome.status === "failed") {
      await base.set({ title_extraction: "failed", title_extraction_error: outcome.reason.slice(0, 1000) }).execute();
      const detail = message("pipeline:events.titleNotExtracted", { number: doc.number, name: doc.name, reason: outcome.reason });
      await logEvent(trx, { firmId: doc.firm_id, inboxItemId: doc.processed_from_id, level: "WARNING", event: "title extraction failed", detail, at });
    } else {
      await base.set({ title_extraction: null }).execute();
    }
  });
  return { id: doc.processed_from_id, firm_id: doc.firm_id };
}
