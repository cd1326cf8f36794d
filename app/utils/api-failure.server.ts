import { type Logger, logger } from "../common/logger";
import { ApiError } from "./api.server";

/**
 * The catalogue's words for an API call that failed after the page's answer had begun (data the
 * page draws while it waits): too late to redirect or to change the status, so the page says it.
 */
export function failureKey(error: unknown, log: Logger = logger("console")): string {
  if (!(error instanceof ApiError)) {
    log.error({ err: error }, "page data failed");
    return "errors:internal";
  }
  if (error.status === 401) return "errors:sessionExpired";
  if (error.status === 403) return "errors:forbidden";
  if (error.status === 503 && error.body.message === "errors:apiUnavailable") return "errors:apiUnavailable";
  return error.status >= 500 ? "errors:internal" : "errors:loadingFailed";
}
