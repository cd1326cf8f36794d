import { ApiError } from "./api.server";
import { toastForApiError } from "./api-errors";
import type { ApiClient } from "./auth.server";
import type { Toast } from "./toast";

const BULK = ["retry", "archive", "manual"] as const;

/** Runs the inbox operation a form posted (bulk action or re-processing) and says how it went. */
export async function runInboxIntent(api: ApiClient, form: FormData): Promise<Toast> {
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "reprocess") {
      const id = String(form.get("item") ?? "");
      await api.json(`/api/v1/inbox/${encodeURIComponent(id)}/reprocess`, { method: "POST", json: { case_id: String(form.get("case_id") ?? "") } });
      return { type: "success", key: "inbox:card.reprocessed" };
    }
    if ((BULK as readonly string[]).includes(intent)) {
      const ids = form.getAll("id").map(String).filter(Boolean);
      if (ids.length === 0) return { type: "warning", key: "errors:required" };
      const { data } = await api.json<{ done: string[]; skipped: { id: string; reason: string }[] }>("/api/v1/inbox/bulk", {
        method: "POST",
        json: { action: intent, ids },
      });
      if (data.skipped.length) {
        const reasons = [...new Set(data.skipped.map((s) => s.reason))].join(", ");
        return { type: "warning", key: "inbox:card.skipped", values: { count: data.skipped.length, reasons } };
      }
      return { type: "success", key: "inbox:card.done" };
    }
    return { type: "error", key: "errors:somethingWrong" };
  } catch (error) {
    if (error instanceof ApiError) return toastForApiError(error.status, error.body.message);
    throw error;
  }
}
