import type { Toast } from "./toast";

/** The toast for a failed API call: the spec's texts for 409 and 500, the API's own words otherwise. */
export function toastForApiError(status: number, message?: string): Toast {
  if (status === 409) return { type: "error", key: "errors:conflict" };
  if (status >= 500) return { type: "error", key: status === 503 && message === "errors:apiUnavailable" ? message : "errors:internal" };
  if (message?.startsWith("errors:")) return { type: "error", key: message };
  return message ? { type: "error", text: message } : { type: "error", key: "errors:somethingWrong" };
}
