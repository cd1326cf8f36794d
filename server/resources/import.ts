import type { Kysely } from "kysely";
import type { ImportConfirmation, ImportJobReport } from "../../app/common/import/types";
import type { Caller } from "../auth/caller";
import { HttpError } from "../lib/errors";
import type { ServerContext } from "../context";
import { findFirm } from "../firm/firm-repository";
import { message } from "../lib/messages";
import { type ImportFile, type ImportLine, importLines, readImportFile } from "./import-file";
import { createJob, findJob, finishJob, recordBatch } from "./import-jobs";
import { parseLine } from "./import-line";
import { resolveReferences } from "./import-references";
import { SYNC_KEYS, absentFromFile, deleteRecords } from "./import-sync";
import { discardUpload } from "./import-upload";
import { type WrittenLine, importLine } from "./import-write";
import { checkWritableFields, requireResource } from "./repository";
import type { ServerResource } from "./types";
import { logger } from "../../app/common/logger";

// Import of a comma-separated file into any writable registry entity. The request checks the
// file and the firm's limits and answers at once; the lines are then written by a job in this
// process, in transactions of BATCH_SIZE lines, its progress kept in the database.

export const BATCH_SIZE = 250;

export interface ImportOptions {
  /** Goes ahead although the file has more lines than the firm's warning threshold. */
  confirm: boolean;
  /** Cases only: the firm's cases absent from the file are deleted. */
  sync: boolean;
}

export type ImportStart = ImportConfirmation | { confirmationRequired: false; job: ImportJobReport };

/** Imports running in this process, so that shutting down stops them between batches. */
export class ImportRunner {
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  start(run: (signal: AbortSignal) => Promise<void>): void {
    const task = run(this.controller.signal).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async close(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }
}

const refuse = (key: string, values?: Record<string, unknown>) => new HttpError(400, message(`transfer:import.${key}`, values));

/**
 * Checks the uploaded file and starts its job. The upload is the job's from then on (it deletes
 * the file when done); when no job starts, the file is deleted here.
 */
export async function startImport(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  upload: string,
  options: ImportOptions,
  runner: ImportRunner,
): Promise<ImportStart> {
  let started = false;
  try {
    const outcome = await checkAndStart(ctx, caller, res, upload, options, runner);
    started = !outcome.confirmationRequired;
    return outcome;
  } finally {
    if (!started) discardUpload(upload);
  }
}

async function checkAndStart(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  upload: string,
  options: ImportOptions,
  runner: ImportRunner,
): Promise<ImportStart> {
  requireResource(res, caller, "write");
  if (options.sync && !res.def.importSync) throw refuse("syncOnlyCases");
  const file = await readImportFile(res, upload, { keys: options.sync ? SYNC_KEYS : [] });
  checkWritableFields(res, caller, Object.fromEntries(file.columns.filter((c) => c.field).map((c) => [c.name, true])));
  const firm = await findFirm(ctx.database, caller.firmId);
  if (!firm) throw new HttpError(404, message("errors:notFound"));
  const max = firm.max_case_deletions_on_import;
  if (options.sync) {
    const absent = await absentFromFile(ctx, caller, res, file, new Set());
    if (absent.length > max) throw refuse("syncTooMany", { count: absent.length, max });
  }
  const threshold = firm.import_warning_threshold;
  if (!options.confirm && file.count > threshold) {
    const rows = file.count;
    return { confirmationRequired: true, rows, threshold, message: message("transfer:import.confirmNeeded", { rows, threshold }) };
  }
  const id = await createJob(ctx, { firmId: caller.firmId, userId: caller.userId, resource: res.def.key, total: file.count, sync: options.sync });
  const job = (await findJob(ctx, caller.firmId, id))!;
  runner.start((signal) => runImport(ctx, caller, res, file, { id, sync: options.sync, max }, signal));
  return { confirmationRequired: false, job };
}

async function importBatch(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  file: ImportFile,
  jobId: string,
  batch: ImportLine[],
): Promise<WrittenLine[]> {
  const lines = batch.map((l) => parseLine(res, file, l));
  // Tables are named by the registry at run time, as in the generic repository.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = ctx.database.db as unknown as Kysely<any>;
  return db.transaction().execute(async (trx) => {
    await resolveReferences(trx, caller, res, lines);
    const written: WrittenLine[] = [];
    for (const line of lines) written.push(await importLine(trx, ctx, caller, res, line));
    await recordBatch(
      trx,
      jobId,
      written.map((w) => w.report),
      ctx.clock.now(),
    );
    return written;
  });
}

async function syncDeletions(ctx: ServerContext, caller: Caller, res: ServerResource, file: ImportFile, written: Set<string>, max: number) {
  const absent = await absentFromFile(ctx, caller, res, file, written);
  // Cases added since the file was checked may take the count over the limit: then none go.
  if (absent.length > max) return { deleted: 0, message: message("transfer:import.syncSkipped", { count: absent.length, max }) };
  const result = await deleteRecords(ctx, caller, res, absent);
  const note = result.refused ? message("transfer:import.syncNotDeleted", { count: result.refused, reason: result.reason }) : null;
  return { deleted: result.deleted, message: note };
}

async function runImport(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  file: ImportFile,
  job: { id: string; sync: boolean; max: number },
  signal: AbortSignal,
): Promise<void> {
  // Ids are kept only where a synchronising import needs them afterwards.
  const written = new Set<string>();
  const writeBatch = async (batch: ImportLine[]) => {
    const lines = await importBatch(ctx, caller, res, file, job.id, batch);
    for (const line of lines) {
      if (line.id && job.sync) written.add(line.id);
      if (line.inserted && res.hooks?.afterInsert) await res.hooks.afterInsert(ctx, caller, line.inserted);
      if (line.id) await line.committed?.(line.id);
    }
    // Other requests get the database between batches.
    await new Promise((resolve) => setImmediate(resolve));
  };
  try {
    let batch: ImportLine[] = [];
    for await (const line of importLines(file)) {
      if (signal.aborted) {
        await finishJob(ctx, job.id, { status: "failed", message: message("transfer:import.interrupted") });
        return;
      }
      batch.push(line);
      if (batch.length < BATCH_SIZE) continue;
      await writeBatch(batch);
      batch = [];
    }
    if (batch.length) await writeBatch(batch);
    const end = job.sync ? await syncDeletions(ctx, caller, res, file, written, job.max) : { deleted: 0, message: null };
    await finishJob(ctx, job.id, { status: "done", ...end });
  } catch (error) {
    logger("worker").error({ err: error, importJobId: job.id }, "import job failed");
    await finishJob(ctx, job.id, { status: "failed", message: message("errors:internal") }).catch(() => undefined);
  } finally {
    discardUpload(file.path);
  }
}
