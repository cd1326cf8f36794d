import { type Kysely, sql } from "kysely";
import { type FirmRecord, type FirmUpdate, isAddressLiteral, normaliseHostName } from "../../app/common/firm-schema";
import type { Database } from "../db/database";
import { inJob, readOncePerJob } from "../db/job-reads";
import type { DB } from "../db/schema";
import { firmRecord, firmRowUpdate } from "./firm-record";

// Every column of the firm row, by name. The logo (up to 1 MB) is a row of its own table, read
// only where it is served: a job reads the firm several times per notice (decisions 076, 086).
// A column missing here fails the type check: firmRecord takes every column.
const FIRM_COLUMNS = [
  "id",
  "name",
  "host_names",
  "signon_type",
  "created_at",
  "updated_at",
  "max_case_deletions_on_import",
  "default_daily_cadence_delivery_time",
  "public_document_access",
  "manually_process_notices",
  "manual_process_emails",
  "store_notice_as_docket_text",
  "max_email_attachment_size",
  "primary_color",
  "secondary_color",
  "default_delivery_method",
  "default_notification_cadence",
  "internal_walls_enabled",
  "storage_policy_hierarchy",
  "storage_policy_id",
  "internal_walls_state",
  "prefers_combined_documents",
  "default_email_template_id",
  "additional_receipt_emails",
  "error_notification_emails",
  "error_notification_level",
  "ignored_case_statuses",
  "reply_to_email",
  "wait_for_dms_attempt_to_notify",
  "case_not_found_report_emails",
  "web_preferences",
  "default_time_zone",
  "dms_failure_report_emails",
  "import_warning_threshold",
  "max_import_size",
  "entitled_features",
  "accepted_email_domains",
  "ignored_email_domains",
  "court_mail_senders",
  "extract_document_web_links",
  "minutes_saved_per_notice",
  "missed_notice_hours",
  "missed_notice_report_emails",
  "is_default",
  "error_reported_until",
  "dictionary_version",
] as const satisfies readonly (keyof DB["firm"])[];

function selectFirm(db: Kysely<DB>) {
  return db
    .selectFrom("firm")
    .select(FIRM_COLUMNS)
    .select(sql<number>`case when exists (select 1 from firm_logo where firm_logo.firm_id = firm.id) then 1 else 0 end`.as("has_logo"));
}

// Firm ids are 32-bit serials. Asked for anything else, PostgreSQL fails the query instead of
// finding nothing, so such an id is answered as "no such firm" before it reaches the database.
const isFirmId = (id: number): boolean => Number.isInteger(id) && id > 0 && id <= 2 ** 31 - 1;

const firmReadKey = (id: number) => `firm:${id}`;
const webhooksReadKey = (id: number) => `webhooks:${id}`;

/** A firm's enabled webhooks, as its events are told to them. */
export interface FirmWebhook {
  id: string;
  type: string;
  payload_version: string;
  events: string;
}

function selectWebhooks(db: Kysely<DB>) {
  return db.selectFrom("webhook").select(["id", "type", "payload_version", "events"]).where("enabled", "=", 1);
}

/** The firm's enabled webhooks; a job reads them once. */
export function firmWebhooks(db: Kysely<DB>, firmId: number): Promise<FirmWebhook[]> {
  return readOncePerJob(webhooksReadKey(firmId), () => selectWebhooks(db).where("firm_id", "=", firmId).execute());
}

/**
 * On PostgreSQL a claim reads its job's firm and the firm's webhooks in its own statement, as
 * JSON columns of the claimed row (`job` is the claimed row's name there), so the job does not
 * read them again.
 */
export function firmOfJobColumns(db: Kysely<DB>) {
  const firm = selectFirm(db).where(sql<boolean>`firm.id = job.firm_id`);
  const webhooks = selectWebhooks(db).where(sql<boolean>`webhook.firm_id = job.firm_id`);
  return sql`(select row_to_json(f) from (${firm}) f) as firm_row,
    (select coalesce(json_agg(w), '[]') from (${webhooks}) w) as webhook_rows`;
}

/** What a claim read by `firmOfJobColumns`, as the job's reads keep it (none on SQLite). */
export function firmReadsOfClaim(job: { firm_id: number; firm_row?: unknown; webhook_rows?: unknown }): Map<string, unknown> {
  if (job.webhook_rows === undefined) return new Map();
  const row = job.firm_row as Parameters<typeof firmRecord>[0] | null;
  return new Map<string, unknown>([
    [firmReadKey(job.firm_id), row ? firmRecord(row) : undefined],
    [webhooksReadKey(job.firm_id), job.webhook_rows],
  ]);
}

/** The firm's record; a job reads it once (job-reads.ts). */
export async function findFirm(database: Database, id: number): Promise<FirmRecord | undefined> {
  return firmIn(database.db, id);
}

function firmIn(db: Kysely<DB>, id: number): Promise<FirmRecord | undefined> {
  if (!isFirmId(id)) return Promise.resolve(undefined);
  return readOncePerJob(firmReadKey(id), async () => {
    const row = await selectFirm(db).where("id", "=", id).executeTakeFirst();
    return row ? firmRecord(row) : undefined;
  });
}

/**
 * A setting of the firm that steps of a job ask for: from the job's record of the firm, else
 * (a request) read alone through `db`.
 */
export async function firmSetting(db: Kysely<DB>, firmId: number, setting: "internal_walls_enabled" | "wait_for_dms_attempt_to_notify"): Promise<boolean> {
  if (inJob()) return Boolean((await firmIn(db, firmId))?.[setting]);
  const row = await db.selectFrom("firm").select(setting).where("id", "=", firmId).executeTakeFirst();
  return Boolean(row?.[setting]);
}

/**
 * Host names the default firm answers to without listing them: the console's own host (the
 * public URL's) and localhost. No other firm may claim them.
 */
export function implicitHostNames(publicUrl: string): string[] {
  return [...new Set([normaliseHostName(new URL(publicUrl).host), "localhost"])];
}

/**
 * The firm whose configured host names include this host, else the default firm. An IP address
 * leads to the default firm even where a firm listed it before such names were refused.
 */
export async function findFirmForHost(database: Database, host: string | undefined, implicitHosts: string[] = []): Promise<FirmRecord | undefined> {
  const rows = await database.db.selectFrom("firm").select(["id", "host_names", "is_default"]).execute();
  const bare = host ? normaliseHostName(host) : undefined;
  const fallback = rows.find((r) => r.is_default) || rows.sort((a, b) => a.id - b.id)[0];
  const claimable = bare && !implicitHosts.includes(bare) && !isAddressLiteral(bare);
  const claimed = claimable ? rows.find((r) => (JSON.parse(r.host_names) as string[]).includes(bare)) : undefined;
  const match = claimed || fallback;
  return match ? findFirm(database, match.id) : undefined;
}

/** Every host name the other firms answer to, implicitly included (`id` undefined: every firm's). */
export async function hostNamesOfOtherFirms(database: Database, id: number | undefined, implicitHosts: string[] = []): Promise<string[]> {
  const rows = await database.db
    .selectFrom("firm")
    .select(["host_names", "is_default"])
    .where("id", "!=", id ?? 0)
    .execute();
  return [...new Set(rows.flatMap((r) => [...(JSON.parse(r.host_names) as string[]), ...(r.is_default ? implicitHosts : [])]))];
}

/** `db`: a transaction the update belongs to (with its audit entry), else the database itself. */
export async function updateFirm(database: Database, id: number, update: FirmUpdate, now: number, db: Kysely<DB> = database.db): Promise<void> {
  await db.updateTable("firm").set(firmRowUpdate(update, now)).where("id", "=", id).execute();
}

export async function firmLogo(database: Database, id: number): Promise<Buffer | null> {
  if (!isFirmId(id)) return null;
  const row = await database.db.selectFrom("firm_logo").select("png").where("firm_id", "=", id).executeTakeFirst();
  return row?.png ?? null;
}

/** Replaces the logo; the firm's change time moves with it, as the logo's address carries it. */
export async function saveFirmLogo(database: Database, id: number, png: Buffer, now: number): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("firm_logo")
      .values({ firm_id: id, png })
      .onConflict((oc) => oc.column("firm_id").doUpdateSet({ png }))
      .execute();
    await trx.updateTable("firm").set({ updated_at: now }).where("id", "=", id).execute();
  });
}
