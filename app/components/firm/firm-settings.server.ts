import { data, redirect } from "@remix-run/node";
import { TIME_ZONES } from "../../common/resources/notifications";
import { allows } from "../../common/access";
import { ApiError, errorOf } from "../../utils/api.server";
import { type SignedIn, requireUser } from "../../utils/auth.server";
import type { FirmRecord } from "../../common/firm-schema";
import type { Toast } from "../../utils/toast";
import { redirectWithToast } from "../../utils/toast.server";
import { forgetBranding } from "../../utils/branding.server";
import { inputOf } from "../../utils/wizard-state";
import { FIRM_INFORMATION_PAGE, type FirmSettingsPage, fieldsOf, firmUpdateOf, parseFirmForm } from "./firm-fields";
import { LOGO_INTENT, MAX_LOGO_BYTES, isPng } from "./logo";
import { readForm } from "../../utils/request-body.server";
import { logger } from "../../common/logger";

// The firm settings pages (/firm-information, /special-handling): the firm, the choices of their
// selects, saving a page's settings, and the logo.

/** An unreachable API counts as a failed call; an ended session still goes to sign-in. */
const unlessUnreachable = (error: unknown) => {
  if (error instanceof ApiError) return null;
  throw error;
};

export interface TemplateOption {
  value: string;
  label: string;
}

/** Templates for the default template select; a role that may not list them keeps the current one. */
async function templateOptions(api: SignedIn["api"]): Promise<TemplateOption[]> {
  const response = await api.raw("/api/v1/email-template/search?max=100&sort=name").catch(unlessUnreachable);
  if (!response?.ok) return [];
  const rows = (await response.json()) as { id: string; name: string }[];
  return rows.map((row) => ({ value: String(row.id), label: row.name }));
}

export async function firmSettingsData(request: Request, page: FirmSettingsPage) {
  const { me, api } = await requireUser(request, "firmAccess");
  const listsTemplates = fieldsOf(page).some((f) => f.source === "templates");
  const [{ data: firm }, templates] = await Promise.all([api.json<FirmRecord>("/api/v1/firm"), listsTemplates ? templateOptions(api) : []]);
  // The zones come from the server so that both renders list the same ones, the stored one included.
  const timeZones = TIME_ZONES.includes(firm.default_time_zone) ? TIME_ZONES : [firm.default_time_zone, ...TIME_ZONES];
  return data({ firm, templates, timeZones, canEdit: allows(me.userRole.firmAccess, "write") });
}

/** The toast of a failed firm save: the API's own text when it sent one, else the catalogue's. */
export function firmSaveFailure(error: ApiError): Toast {
  const text = error.body.message?.trim();
  // A catalogue key (the API out of reach) is said in the catalogue's words, not shown as a key.
  if (!text || /^[a-z]+:[\w.]+$/.test(text)) return { type: "error", key: text || "errors:settingsUpdate" };
  return { type: "error", text };
}

const failed = (request: Request, page: FirmSettingsPage, key: string) => redirectWithToast(request, page.path, { type: "error", key });

async function saveSettings(request: Request, page: FirmSettingsPage, formData: FormData, { api }: SignedIn) {
  const submission = parseFirmForm(formData, page);
  if (submission.status !== "success") return data({ result: submission.reply() });
  try {
    // The PUT takes the whole record: what the form does not show is carried over as stored.
    const { data: firm } = await api.json<FirmRecord>("/api/v1/firm");
    const path = `/api/v1/firm/${firm.id}`;
    const response = await api.raw(path, { method: "PUT", json: firmUpdateOf(firm, submission.value) });
    if (response.ok) {
      // The sign-in page shows the new branding and sign-on type at once, not in half a minute.
      forgetBranding();
      return redirectWithToast(request, page.path, { type: "success", key: "firm:saved" });
    }
    const error = await errorOf(response, path);
    const fieldErrors: Record<string, string[]> = {};
    for (const [key, messages] of Object.entries(error.body.fieldErrors ?? {})) (fieldErrors[inputOf(key)] ??= []).push(...messages);
    const onForm = Object.keys(fieldErrors).length > 0 && Object.keys(fieldErrors).every((name) => fieldsOf(page).some((f) => f.name === name));
    if (error.status === 400 && onForm) return data({ result: submission.reply({ fieldErrors }) });
    // Spec §8: the failure is logged, and its own text, when it has one, is what the user reads.
    logger("console").error({ status: error.status, apiMessage: error.body.message ?? "" }, "saving the firm failed");
    return redirectWithToast(request, page.path, firmSaveFailure(error));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return redirectWithToast(request, page.path, firmSaveFailure(error));
  }
}

async function uploadLogo(request: Request, formData: FormData, { api }: SignedIn) {
  const page = FIRM_INFORMATION_PAGE;
  const file = formData.get("logo");
  const bytes = file && typeof file !== "string" ? Buffer.from(await file.arrayBuffer()) : null;
  if (!bytes || bytes.length === 0 || bytes.length >= MAX_LOGO_BYTES || !isPng(bytes)) return failed(request, page, "errors:imageUpload");
  const response = await api.raw("/api/v1/firm/logo.png", { method: "PUT", body: bytes, contentType: "image/png" }).catch(unlessUnreachable);
  if (!response?.ok) return failed(request, page, "errors:imageUpload");
  return redirectWithToast(request, page.path, { type: "success", key: "firm:logo.saved" });
}

export async function firmSettingsAction(request: Request, page: FirmSettingsPage) {
  const signedIn = await requireUser(request, "firmAccess");
  if (!allows(signedIn.me.userRole.firmAccess, "write")) throw redirect("/success");
  // An oversized upload is refused before it is read into memory.
  if (Number(request.headers.get("content-length") ?? 0) > MAX_LOGO_BYTES + 64 * 1024) return failed(request, page, "errors:imageUpload");
  const formData = await readForm(request);
  // The logo has its form on the firm information page only.
  if (formData.get("intent") === LOGO_INTENT && page === FIRM_INFORMATION_PAGE) return uploadLogo(request, formData, signedIn);
  return saveSettings(request, page, formData, signedIn);
}
