import { data } from "@remix-run/node";
import { allows } from "../../common/access";
import { billing } from "../../common/resources/billing";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { EXPORTS_PATH } from "./paths";

// /billing/exports (decision 113): the firm's cost code, LEDES law firm id and review minutes per
// timekeeper title, and the cost load and time downloads, filtered by period, client and matter.
// Every form is plain HTML: a download posts to a resource route (each export is logged).

export interface BillingSettings {
  cost_code: string | null;
  law_firm_id: string;
  review_minutes: Record<string, number>;
  can_change: boolean;
}

const lastMonth = () => {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) };
};

export async function exportsPageData(request: Request) {
  const { me, api } = await requireUser(request, billing.accessKey);
  const [settings, clients, matters] = await Promise.all([
    api.json<BillingSettings>("/api/v1/billing/settings"),
    api.json<{ id: string; name: string }[]>("/api/v1/client/search?max=100&sort=name"),
    api.json<{ id: string; name: string }[]>("/api/v1/matter/search?max=100&sort=name"),
  ]);
  return data({
    settings: settings.data,
    canChange: settings.data.can_change && allows(me.userRole[billing.accessKey], "write"),
    clients: clients.data.map((c) => ({ value: c.id, label: c.name })),
    matters: matters.data.map((m) => ({ value: m.id, label: m.name })),
    period: lastMonth(),
    pageTitle: { key: "resources:billing.exports.title" },
  });
}

/** "Partner=6" lines into minutes per title; a line that is not one is left out. */
export function minutesOf(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(.+?)\s*=\s*(\d{1,3})\s*$/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

export async function exportsPageAction(request: Request) {
  const { api } = await requireUser(request, billing.accessKey);
  const form = await readForm(request);
  try {
    await api.json("/api/v1/billing/settings", {
      method: "PUT",
      json: {
        cost_code: String(form.get("cost_code") ?? "").trim() || null,
        law_firm_id: String(form.get("law_firm_id") ?? "").trim(),
        review_minutes: minutesOf(String(form.get("review_minutes") ?? "")),
      },
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return redirectWithToast(request, EXPORTS_PATH, { type: "error", key: "errors:settingsUpdate" });
  }
  return redirectWithToast(request, EXPORTS_PATH, { type: "success", key: "resources:billing.exports.saved" });
}

/** A download from the API, or back to the page with what went wrong ('Cost Code required'). */
export async function exportDownload(request: Request, kind: "costs" | "time") {
  const { api } = await requireUser(request, billing.accessKey);
  const form = await readForm(request);
  const body: Record<string, string> = {};
  for (const name of ["from", "to", "client_id", "matter_id", "format"]) {
    const value = String(form.get(name) ?? "").trim();
    if (value) body[name] = value;
  }
  const response = await api.raw(`/api/v1/billing/${kind}/export`, { method: "POST", json: body, accept: "*/*" });
  if (!response.ok) {
    await response.body?.cancel();
    const key = response.status === 409 ? "errors:costCodeRequired" : response.status === 400 ? "errors:selectTwoDates" : "errors:tableExport";
    return redirectWithToast(request, EXPORTS_PATH, { type: "error", key });
  }
  return new Response(response.body, {
    headers: {
      "Content-Type": response.headers.get("content-type") ?? "text/plain",
      "Content-Disposition": response.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "private, no-store",
    },
  });
}
