import fs from "node:fs";
import { type Kysely, sql } from "kysely";
import type { DemoResetResult } from "../../app/common/demo-reset";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { receiveMessage } from "../inbox/receive";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";
import { requeueStalledWork } from "../pipeline/requeue-stalled";
import { firmStorageRoot } from "../dms/dms-targets";
import { DEMO_INBOX } from "./demo";
import { seedDemoFirmData } from "./demo-firm-data";
import { demoNotices } from "./demo-notices";
import { seedDemoYear } from "./demo-year";
import { logger } from "../../app/common/logger";

// Puts the demo firm's data back as a first start leaves it (decision 048). Users, roles, the
// firm row and its inbox address stay; so do AUDIT entries, the firm's own history.

/**
 * The firm's rows, children before parents, so that no foreign key is left pointing at a
 * deleted row. tests/api/demo-reset.test.ts checks that every table with a firm_id is here or in
 * KEPT_TABLES, so a table added later is not forgotten.
 */
export const RESET_TABLES = [
  // What the demo's notices cost: it goes with them.
  "court_cost",
  "webhook_delivery",
  "webhook",
  "missed_notice",
  "case_docket_entry",
  "case_tracking_period",
  "case_tracking",
  "case_retrieve",
  "notification",
  "digest_run",
  "dms_record",
  "document",
  "envelope",
  "event_log",
  "inbox_item",
  "job",
  "import_job",
  "outbound_mail_notice",
  "outbound_mail",
  "case_timekeeper",
  "court_case",
  "ignored_case",
  "matter",
  "client",
  "ethical_wall_timekeeper",
  "ethical_wall",
  "jurisdiction_preference_group",
  "jurisdiction_preference_rule",
  "jurisdiction_preference",
  "document_processing",
  "jurisdiction_group_jurisdiction",
  "jurisdiction_group",
  "auto_case_creation_timekeeper",
  "auto_case_creation",
  "notification_rule",
  "timekeeper_group",
  "timekeeper",
  "judge",
  "jurisdiction_ecfx",
  "jurisdiction",
  "location",
  "department",
  "practice_group",
  "abbreviation",
  "storage_policy",
  "dms_credential_token",
  "provider_credential",
  "generic_credential",
  "imanage_cloud_credential",
  "imanage_on_prem_credential",
  "net_documents_cloud_credential",
  "net_documents_client_credential",
  "share_point_cloud_credential",
  "share_point_on_prem_credential",
  "box_client_credential_grant_credential",
  "dropbox_credential",
  "clio_credential",
  "litify_credential",
  "file_vine_credential",
  "pro_law_credential",
  "email_template",
] as const;

/**
 * Who may sign in and how (users, roles, tokens), where mail arrives, the firm's own words (its
 * dictionary, a setting like its colours or its logo), and what the triggers count.
 */
export const KEPT_TABLES = [
  "firm",
  "firm_logo",
  "dictionary_entry",
  "security_role",
  "app_user",
  "refresh_token",
  "password_reset",
  "user_preference",
  "inbox_address",
  "api_call_timing",
  "dashboard_notice_count",
  "dashboard_quarter_count",
  "dashboard_key_count",
  "dashboard_document_count",
  // PostgreSQL: the counts' changes not yet moved into them, the reset's own among them (migration 077).
  "dashboard_notice_pending",
  "dashboard_quarter_pending",
  "dashboard_key_pending",
  "dashboard_document_pending",
  "firm_row_count",
  // Sign-in through the firm's identity provider and provisioning by it: who may sign in and how.
  "firm_sso",
  "sso_request",
  "sso_replay",
  "sso_session",
  "scim_token",
  "scim_user",
  "scim_group",
  "scim_group_member",
  // What the firm subscribed to and was billed: an issued invoice is never changed or removed.
  "firm_service",
  "billing_setting",
  "invoice",
  "invoice_line",
  "invoice_checkout",
  "invoice_payment",
] as const;

/** The tables with a free-text index that SQLite keeps beside them (`<table>_fts`, migration 002), read from the schema. */
async function searchableTables(trx: Kysely<DB>): Promise<Set<string>> {
  const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name glob '*_fts'`.execute(trx);
  return new Set(rows.rows.map((r) => r.name.slice(0, -"_fts".length)));
}

/** How long a reset waits for the worker to finish the firm's jobs it holds. */
const QUIET_WAIT_MS = 5_000;
const QUIET_POLL_MS = 200;

interface Removed {
  notices: number;
  cases: number;
  blobs: string[];
}

type AnyTable = keyof DB;

async function countOf(trx: Kysely<DB>, table: "inbox_item" | "court_case", firmId: number): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select(sql<number>`count(*)`.as("n"))
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Deletes the firm's data in one transaction. While it runs no worker claims a job and no mail
 * is stored (PostgreSQL: the two tables are locked for writes; SQLite has one writer anyway). It
 * goes ahead only when no job of the firm is held by a worker, which could otherwise commit rows,
 * or a next job, about a row deleted under it; until then it drops the firm's waiting jobs (the
 * reset would delete them anyway), so the worker runs out of the firm's work and lets it pass.
 */
async function deleteFirmData(ctx: ServerContext, caller: Caller, firmId: number): Promise<Removed | "busy"> {
  return ctx.database.db.transaction().execute(async (trx) => {
    if (ctx.database.dialect === "postgres") await sql`lock table job, inbox_item in exclusive mode`.execute(trx);
    const now = ctx.clock.now();
    await trx
      .deleteFrom("job")
      .where("firm_id", "=", firmId)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
      .execute();
    const held = await trx.selectFrom("job").select("id").where("firm_id", "=", firmId).limit(1).executeTakeFirst();
    if (held) return "busy";
    const removed: Removed = { notices: await countOf(trx, "inbox_item", firmId), cases: await countOf(trx, "court_case", firmId), blobs: [] };
    const files = await trx.selectFrom("document").select("file_id").distinct().where("firm_id", "=", firmId).where("file_id", "is not", null).execute();
    // No walls and nothing waiting to be told are left: a walls recomputation queued is over too.
    await trx
      .updateTable("firm")
      .set({
        storage_policy_id: null,
        default_email_template_id: null,
        internal_walls_state: sql<string>`case when internal_walls_enabled = 1 then 'applied' else 'unapplied' end`,
      })
      .where("id", "=", firmId)
      .execute();
    const searchable = ctx.database.dialect === "sqlite" ? await searchableTables(trx) : new Set<string>();
    for (const table of RESET_TABLES) {
      if (searchable.has(table)) {
        await sql`delete from ${sql.table(`${table}_fts`)} where rowid in (select rowid from ${sql.table(table)} where firm_id = ${firmId})`.execute(trx);
      }
      let query = trx.deleteFrom(table as AnyTable).where(sql.ref("firm_id"), "=", firmId);
      if (table === "event_log") query = query.where(sql.ref("level"), "<>", "AUDIT");
      await query.execute();
    }
    // A file another firm's document also names stays.
    const hashes = files.map((f) => f.file_id!).filter(Boolean);
    for (let i = 0; i < hashes.length; i += 500) {
      const gone = await trx
        .deleteFrom("blob")
        .where("sha256", "in", hashes.slice(i, i + 500))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom("document").select("id").whereRef("document.file_id", "=", "blob.sha256"))))
        .returning("sha256")
        .execute();
      removed.blobs.push(...gone.map((g) => g.sha256));
    }
    await logEvent(trx, {
      firmId,
      level: "AUDIT",
      event: "configuration changed",
      detail: message("audit:demoReset", { actor: caller.email || "ECFX" }),
      at: now,
    });
    return removed;
  });
}

async function deleteWhenQuiet(ctx: ServerContext, caller: Caller, firmId: number): Promise<Removed> {
  const deadline = Date.now() + QUIET_WAIT_MS;
  try {
    for (;;) {
      const removed = await deleteFirmData(ctx, caller, firmId);
      if (removed !== "busy") return removed;
      if (Date.now() > deadline) throw new HttpError(409, message("errors:demoResetBusy"));
      await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
    }
  } catch (error) {
    // The reset did not happen: the waiting jobs dropped meanwhile are queued again.
    await requeueStalledWork(ctx);
    throw error;
  }
}

/** One reset at a time in this process: a second would seed the same records twice. */
let running: Promise<unknown> = Promise.resolve();
/** The year of history written after a reset: a reset meanwhile would delete files its rows name. */
let yearInProgress = false;

/**
 * Resets the demo firm: its data deleted (rows, fetched documents no other firm shares, the
 * files it filed), then the demo data added again as on the first start: the firm's cases and
 * settings, the demo notices in the inbox for the worker, and the year of history in the
 * background when ECFX_DEMO_YEAR is on.
 */
export function resetDemoFirm(ctx: ServerContext, caller: Caller): Promise<DemoResetResult> {
  if (yearInProgress) return Promise.reject(new HttpError(409, message("errors:demoResetBusy")));
  const reset = running.then(async (): Promise<DemoResetResult> => {
    const firmId = caller.firmId;
    const removed = await deleteWhenQuiet(ctx, caller, firmId);
    let files = 0;
    for (const sha of removed.blobs) if (await ctx.blobs.removeUnlisted(sha)) files++;
    const root = firmStorageRoot(ctx.config.fileStoreRoot, firmId);
    files += countFiles(root);
    await fs.promises.rm(root, { recursive: true, force: true });
    const added = { cases: 0, notices: 0 };
    if (ctx.config.ECFX_DEMO_DATA) {
      await seedDemoFirmData(ctx, firmId);
      added.cases = await countOf(ctx.database.db, "court_case", firmId);
      for (const notice of demoNotices()) {
        await receiveMessage(ctx, { firmId, raw: Buffer.from(notice.raw), source: "SMTP", sender: notice.from, recipients: [DEMO_INBOX] });
        added.notices++;
      }
      if (ctx.config.ECFX_DEMO_YEAR) {
        yearInProgress = true;
        void seedDemoYear(ctx, firmId)
          .catch((error: unknown) => logger("demo").error({ err: error }, "the demo year could not be added"))
          .finally(() => {
            yearInProgress = false;
          });
      }
    }
    return { removed: { notices: removed.notices, cases: removed.cases, files }, added };
  });
  running = reset.catch(() => undefined);
  return reset;
}

function countFiles(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length;
}
