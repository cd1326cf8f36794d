import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { templates } from "../../common/resources/notifications";
import { type ApiClient, requireUser } from "../../utils/auth.server";
import { firmBranding } from "../../utils/branding.server";
import { formatMoment } from "../../utils/dates";
import { redirectWithToast } from "../../utils/toast.server";
import { INTENT_FIELD } from "../../utils/wizard-state";
import { apiMessage, call, readRecord, updateRecord } from "../fields/record-api.server";
import type { NoticeChoice, PreviewOutcome, RenderedPreview } from "../../common/template-preview";
import { readForm } from "../../utils/request-body.server";

// The template editor page (/templates/edit/{id}): the template with a preview rendered by the
// API from a real notice; Preview renders what is in the form, Save writes it.

export const editorPath = (id: string) => `/templates/edit/${encodeURIComponent(id)}`;

export async function previewTemplate(api: ApiClient, template: string, inboxItemId?: string): Promise<PreviewOutcome> {
  const json = inboxItemId ? { template, inboxItemId } : { template };
  const answer = await call<RenderedPreview>(api, `${templates.apiPath}/preview`, { method: "POST", json });
  return answer.ok ? { ok: true, preview: answer.data } : { ok: false, message: apiMessage(answer.error) };
}

/** The firm's latest processed notices, to preview the template with; none when the role may not read the inbox. */
async function recentNotices(api: ApiClient, timeZone: string): Promise<NoticeChoice[]> {
  const answer = await call<{ id: string; subject: string; created_at: number }[]>(
    api,
    "/api/v1/inbox-item/search?filter.disposition=Processed&sort=-created_at&max=20",
    {},
  );
  if (!answer.ok) return [];
  return answer.data.map((n) => ({ id: n.id, label: `${formatMoment(n.created_at, timeZone, "date")} · ${n.subject}`.slice(0, 160) }));
}

export interface EditorValues {
  name: string;
  template: string;
}

export async function templateEditorData(request: Request, id: string | undefined) {
  if (!id) throw redirect("/templates");
  // Spec §2: the editor has no access key of its own; the API decides what the role may read.
  const { api, me } = await requireUser(request);
  const record = await readRecord(api, templates, id);
  const values: EditorValues = { name: String(record.name ?? ""), template: String(record.template ?? "") };
  return data({
    id,
    values,
    canWrite: me.userRole[templates.accessKey] === "FULL",
    preview: await previewTemplate(api, values.template),
    notices: await recentNotices(api, (await firmBranding({ firmId: me.firmId }))?.time_zone ?? "UTC"),
    pageTitle: { key: "resources:templates.editor.title", values: { title: values.name || id } },
  });
}

export async function templateEditorAction(request: Request, id: string | undefined) {
  if (!id) throw redirect("/templates");
  const { api } = await requireUser(request);
  const formData = await readForm(request);
  const values: EditorValues = { name: String(formData.get("name") ?? ""), template: String(formData.get("template") ?? "") };
  const answer = (extra: { result?: SubmissionResult<string[]>; preview?: PreviewOutcome }) => data({ values, ...extra });

  if (formData.get(INTENT_FIELD) === "preview") {
    return answer({ preview: await previewTemplate(api, values.template, String(formData.get("inboxItemId") ?? "") || undefined) });
  }

  const submission = parseWithZod(formData, { schema: templates.schema });
  if (submission.status !== "success") return answer({ result: submission.reply() });
  const saved = await updateRecord(api, templates, id, submission.value);
  if (saved.ok) return redirectWithToast(request, editorPath(id), { type: "success", key: "wizard:saved" });
  // The API's reasons go on their fields (a template that does not compile); others above the form.
  const fieldErrors = Object.fromEntries(Object.entries(saved.error.body.fieldErrors ?? {}).filter(([field]) => field in values));
  return answer({ result: submission.reply({ fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [apiMessage(saved.error)] }) });
}
