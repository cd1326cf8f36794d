import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { findResource } from "../../common/resources";
import type { FieldDef, ResourceDef } from "../../common/resources/types";
import { requireUser } from "../../utils/auth.server";
import { redirectWithToast } from "../../utils/toast.server";
import { INTENT_FIELD, inputOf } from "../../utils/wizard-state";
import { changed, editFields, isReferenceKind, schemaFor } from "./form-values";
import { type Row, apiMessage, call, deleteRecord, pickerData, readRecord, referenceTitles, updateRecord } from "./record-api.server";
import { readForm } from "../../utils/request-body.server";
import { loadRecordSections } from "../record-sections/sections.server";
import { pageNotFound } from "../../utils/not-found.server";

import type { ConnectionReport } from "./connection-report";

// The detail page of any registry entry: the record with its references named, an edit form
// for roles with full access, and delete with a confirmation step.

const asList = (value: unknown): string[] =>
  value === null || value === undefined || value === "" ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

async function openRecordPage(request: Request, key: string | undefined, id: string | undefined) {
  const def = key ? findResource(key) : undefined;
  if (!def || !id) return pageNotFound(request);
  // An entity with a page of its own (the inbox card) answers there; old links keep working.
  if (def.viewPath) throw redirect(def.viewPath(id));
  const signedIn = await requireUser(request, def.accessKey);
  // A role that may only read sees the page without edit and delete; the API refuses them anyway.
  const canWrite = signedIn.me.userRole[def.accessKey] === "FULL" && Object.keys(def.schema.shape).length > 0;
  return { def, id, canWrite, ...signedIn };
}

const detailPath = (def: ResourceDef, id: string) => `/${def.key}/${encodeURIComponent(id)}`;

function pickersFor(fields: FieldDef[], values: Record<string, unknown>, narrow: Record<string, string> = {}) {
  return fields
    .filter((f) => isReferenceKind(f) && f.reference)
    .map((f) => ({ name: f.name, reference: f.reference!, selected: asList(values[f.name]), query: narrow[f.name] }));
}

export async function recordPageData(request: Request, key: string | undefined, id: string | undefined) {
  const { def, canWrite, api, auth: _auth, ...rest } = await openRecordPage(request, key, id);
  const record = await readRecord(api, def, rest.id);
  const references = def.fields.filter((f) => isReferenceKind(f) && f.reference && f.name in record);
  const editing = canWrite && new URL(request.url).searchParams.has("edit");
  const [titles, pickers, sections] = await Promise.all([
    referenceTitles(
      api,
      references.map((f) => ({ reference: f.reference!, ids: asList(record[f.name]) })),
    ),
    editing ? pickerData(api, pickersFor(editFields(def, record), record)) : Promise.resolve({}),
    editing ? Promise.resolve({}) : loadRecordSections(request, api, rest.me, rest.me.parts, def, rest.id, record),
  ]);
  const title = String(record[def.titleField] ?? rest.id);
  const authorization = !editing && def.authorization ? await authorizationStatus(api, def, rest.id) : null;
  return data({
    resourceKey: def.key,
    record,
    authorization,
    titles,
    canWrite,
    editing,
    pickers,
    sections,
    title,
    pageTitle: { key: "wizard:detailTitle", values: { resource: def.key, title } },
  });
}

/** The changed fields, ready for the API, and the fields that cannot be emptied through it. */
function changesOf(def: ResourceDef, fields: FieldDef[], value: Row, record: Row): { changes: Row; cannotClear: string[] } {
  const changes: Row = {};
  const cannotClear: string[] = [];
  const shape = def.schema.shape as Record<string, z.ZodTypeAny>;
  for (const field of fields) {
    const next = field.kind === "boolean" ? Boolean(value[field.name]) : value[field.name];
    if (!changed(field, next, record[field.name])) continue;
    if (next !== undefined) changes[field.name] = next;
    // An emptied optional reference or date is sent as null, an emptied text as "".
    else if (shape[field.name]?.safeParse(null).success) changes[field.name] = null;
    else if (shape[field.name]?.safeParse("").success) changes[field.name] = "";
    else cannotClear.push(field.name);
  }
  return { changes, cannotClear };
}

async function saveRecord(request: Request, formData: FormData, opened: Awaited<ReturnType<typeof openRecordPage>>) {
  const { def, id, api } = opened;
  const record = await readRecord(api, def, id);
  const fields = editFields(def, record);
  const schema = schemaFor(def, fields, id);
  const intent = String(formData.get(INTENT_FIELD) ?? "save");
  const posted = Object.fromEntries(fields.map((f) => [f.name, f.kind === "references" ? formData.getAll(f.name) : formData.get(f.name)]));
  const answer = async (result: SubmissionResult<string[]>, narrow: Record<string, string> = {}) =>
    data({ edit: { result, pickers: await pickerData(api, pickersFor(fields, posted, narrow)) } });

  if (intent.startsWith("narrow:")) {
    const field = intent.slice("narrow:".length);
    return answer(parseWithZod(formData, { schema: z.object({}) }).reply(), { [field]: String(formData.get(`pick.${field}`) ?? "") });
  }
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return answer(submission.reply());
  const { changes, cannotClear } = changesOf(def, fields, submission.value as Row, record);
  if (cannotClear.length) return answer(submission.reply({ fieldErrors: Object.fromEntries(cannotClear.map((f) => [f, ["errors:cannotClear"]])) }));
  if (Object.keys(changes).length === 0) return redirectWithToast(request, detailPath(def, id), { type: "info", key: "wizard:noChanges" });

  const saved = await updateRecord(api, def, id, changes);
  if (saved.ok) return redirectWithToast(request, detailPath(def, id), { type: "success", key: "wizard:saved" });
  const fieldErrors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(saved.error.body.fieldErrors ?? {})) (fieldErrors[inputOf(key)] ??= []).push(...messages);
  const known = Object.keys(fieldErrors).every((f) => fields.some((field) => field.name === f));
  return answer(
    submission.reply({
      fieldErrors,
      formErrors:
        Object.keys(fieldErrors).length && known ? [] : [saved.error.status >= 500 && def.updateFailedKey ? def.updateFailedKey : apiMessage(saved.error)],
    }),
  );
}

/** Signs in to the system the record names and lists its root: what works and what does not, step by step. */
async function testConnection(opened: Awaited<ReturnType<typeof openRecordPage>>) {
  const { def, id, api } = opened;
  const tried = await call<ConnectionReport>(api, `${def.apiPath}/${encodeURIComponent(id)}/test-connection`, { method: "POST" });
  const connection: ConnectionReport = tried.ok
    ? tried.data
    : { ok: false, steps: [{ step: "storage:connection.prepare", ok: false, detail: apiMessage(tried.error) }] };
  return data({ connection });
}

/** Whether the credential is connected to the vendor that needs a person's approval; null when the API cannot say. */
async function authorizationStatus(api: Awaited<ReturnType<typeof openRecordPage>>["api"], def: ResourceDef, id: string) {
  const status = await call<{ connected: boolean; connectedAt: number | null; required?: boolean }>(
    api,
    `${def.apiPath}/${encodeURIComponent(id)}/authorization`,
    {
      method: "GET",
    },
  );
  return status.ok ? status.data : null;
}

async function removeRecord(request: Request, opened: Awaited<ReturnType<typeof openRecordPage>>) {
  const { def, id, api } = opened;
  const removed = await deleteRecord(api, def, id);
  if (removed.ok) return redirectWithToast(request, `/${def.key}`, { type: "success", key: "wizard:deleted", values: { resource: def.key } });
  // A dependency refusal (409) carries the API's reason, which is what the user needs to read.
  const text = apiMessage(removed.error);
  const toast = text.startsWith("errors:") ? { type: "error" as const, key: text } : { type: "error" as const, text };
  return redirectWithToast(request, detailPath(def, id), toast);
}

export async function recordPageAction(request: Request, key: string | undefined, id: string | undefined) {
  const opened = await openRecordPage(request, key, id);
  if (!opened.canWrite) throw redirect("/success");
  const formData = await readForm(request);
  const intent = formData.get(INTENT_FIELD);
  if (intent === "delete") return data({ confirmDelete: true as const });
  if (intent === "confirm-delete") return removeRecord(request, opened);
  if (intent === "test-connection" && opened.def.testConnection) return testConnection(opened);
  return saveRecord(request, formData, opened);
}
