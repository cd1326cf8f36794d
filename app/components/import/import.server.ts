import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  MaxPartSizeExceededError,
  data,
  redirect,
  unstable_composeUploadHandlers,
  unstable_createFileUploadHandler,
  unstable_createMemoryUploadHandler,
} from "@remix-run/node";
import { findResource } from "../../common/resources";
import type { ResourceDef } from "../../common/resources/types";
import type { ApiClient } from "../../utils/auth.server";
import { readMultipartForm } from "../../utils/request-body.server";
import { requireUser } from "../../utils/auth.server";
import { pageNotFound } from "../../utils/not-found.server";
import { LINES_PER_PAGE, MAX_IMPORT_BYTES, isImportable } from "../../common/import/format";
import { columnLabel } from "../../common/import/columns";
import { remixI18n } from "../../utils/i18n.server";
import { importFormSchema } from "./import-form";
import type { ImportConfirmation, ImportJobReport, ImportLineReport } from "../../common/import/types";

// The import page's server side: who may import, sending the file to the API, and reading a
// job's progress and report back.

/** The entity of the URL, for a user whose role may write it; anyone else is sent on. */
export async function importing(request: Request, key: string | undefined) {
  const def = key ? findResource(key) : undefined;
  if (!def || !isImportable(def)) return pageNotFound(request);
  const signedIn = await requireUser(request, def.accessKey);
  if (signedIn.me.userRole[def.accessKey] !== "FULL") throw redirect("/success");
  return { def, ...signedIn };
}

export interface ImportView {
  job: ImportJobReport | null;
  lines: ImportLineReport[];
  total: number;
  page: number;
}

/** The job named by `?job=`, with a page of its lines once it has finished. */
export async function importView(api: ApiClient, def: ResourceDef, url: URL): Promise<ImportView> {
  const jobId = url.searchParams.get("job");
  const page = Math.max(1, Math.floor(Number(url.searchParams.get("page")) || 1));
  if (!jobId) return { job: null, lines: [], total: 0, page };
  const { data: job } = await api.json<ImportJobReport>(`/api/v1/import-jobs/${encodeURIComponent(jobId)}`);
  if (job.resource !== def.key) throw data({ key: "errors:notFound" }, { status: 404 });
  if (job.status === "running") return { job, lines: [], total: 0, page };
  const query = new URLSearchParams({ max: String(LINES_PER_PAGE), offset: String((page - 1) * LINES_PER_PAGE) });
  const { data: lines, response } = await api.json<ImportLineReport[]>(`/api/v1/import-jobs/${encodeURIComponent(job.id)}/lines?${query}`);
  return { job, lines, total: Number(response.headers.get("x-total-count") ?? lines.length), page };
}

export interface ImportActionData {
  lastResult: SubmissionResult<string[]>;
  /** The API's question when the file is over the firm's warning threshold. */
  confirmation?: string;
}

const fileError = (error: string): SubmissionResult<string[]> => ({ status: "error", error: { file: [error] } });

/** The API's refusal as one sentence, naming the fields it refused as the page does. */
function refusal(body: { message?: string; fieldErrors?: Record<string, string[]> }, label: (field: string) => string): string {
  const text = body.message ?? "errors:somethingWrong";
  const fields = Object.entries(body.fieldErrors ?? {}).map(([field, messages]) => `${label(field)}: ${messages.join(" ")}`);
  return fields.length ? `${text} (${fields.join("; ")})` : text;
}

/** Where uploaded files wait until they are passed on: this process's user only. */
function uploadFolder(): string {
  const folder = path.join(os.tmpdir(), "ecfx-console-imports");
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/**
 * The form with its file kept on disk, never whole in memory: the file goes on to the API as a
 * stream (the API applies the firm's own maximum); the other fields are small.
 */
async function readForm(request: Request): Promise<FormData> {
  const files = unstable_createFileUploadHandler({ directory: uploadFolder(), maxPartSize: MAX_IMPORT_BYTES });
  const fields = unstable_createMemoryUploadHandler({ maxPartSize: 1024 });
  // A body that is not a readable multipart form is the sender's mistake (400); a file over the size passes through.
  return readMultipartForm(request, unstable_composeUploadHandlers(files, fields), (error) => error instanceof MaxPartSizeExceededError);
}

/** Sends the uploaded file to the API: a started job redirects to its progress. */
export async function submitImport(request: Request, api: ApiClient, def: ResourceDef): Promise<Response | ImportActionData> {
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { lastResult: fileError("transfer:import.tooLarge") };
    throw error;
  }
  const kept = form.get("file");
  const t = await remixI18n.getFixedT(request);
  try {
    return await passOn(form, api, def, (field) => columnLabel(t, def, field));
  } finally {
    if (kept && typeof kept === "object" && "remove" in kept && typeof kept.remove === "function")
      await (kept.remove as () => Promise<void>)().catch(() => undefined);
  }
}

async function passOn(form: FormData, api: ApiClient, def: ResourceDef, label: (field: string) => string): Promise<Response | ImportActionData> {
  const submission = parseWithZod(form, { schema: importFormSchema });
  // The reply never carries the file back: it is a handle on a file about to be deleted.
  const hideFields = ["file"];
  if (submission.status !== "success") return { lastResult: submission.reply({ hideFields }) };
  const { file, sync, confirm } = submission.value;
  const query = new URLSearchParams();
  if (confirm) query.set("confirm", "true");
  if (sync && def.importSync) query.set("sync", "true");
  const response = await api.raw(`${def.apiPath}/import?${query}`, {
    method: "POST",
    // A Blob body is streamed from the file it stands for.
    body: file,
    contentType: "text/plain; charset=utf-8",
  });
  const body = (await response.json().catch(() => ({}))) as Partial<ImportJobReport & ImportConfirmation> & { fieldErrors?: Record<string, string[]> };
  if (response.status === 202 && body.id) return redirect(`/${def.key}/import?job=${encodeURIComponent(body.id)}`);
  if (response.ok && body.confirmationRequired) return { lastResult: submission.reply({ hideFields }), confirmation: body.message };
  return { lastResult: submission.reply({ hideFields, fieldErrors: { file: [refusal(body, label)] } }) };
}
