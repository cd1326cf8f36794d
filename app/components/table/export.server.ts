import { tableColumns, tableSpecOf } from "./columns";
import { attachmentHeader, safeFilename } from "./export-filename";
import { defaultExportName } from "../../common/export-name";
import { findResource } from "../../common/resources";
import { firmBranding } from "../../utils/branding.server";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { pageNotFound } from "../../utils/not-found.server";
import { apiExportQuery, parseTableUrl, tableHref } from "../../utils/table-url";
import { redirectWithToast } from "../../utils/toast.server";

// The CSV download of a list page: the table's URL state plus a file name. The API's stream is
// passed through as it comes, so a large export never sits in the console's memory.

async function defaultName(resourceKey: string, firmId: number): Promise<string> {
  const branding = await firmBranding({ firmId });
  return defaultExportName(resourceKey, Date.now(), branding?.time_zone ?? "UTC");
}

/** The download of the list `key`: its table's URL state, passed to the API's export. */
export async function exportList(request: Request, key: string) {
  const def = findResource(key);
  if (!def) return pageNotFound(request);
  const { api, me } = await requireUser(request, def.accessKey);
  const url = new URL(request.url);
  // The API applies the role's field permissions; here every declared column may be named.
  const columns = tableColumns(def, () => true);
  const spec = tableSpecOf(def, columns, () => true);
  const { state } = parseTableUrl(url.searchParams, spec);
  const current = new URLSearchParams(url.searchParams);
  current.delete("filename");
  const back = tableHref(`/${def.key}`, state, spec, current);

  // A link without a name gets the default one; a name the user emptied is refused, as the spec asks.
  const given = url.searchParams.get("filename");
  const filename = given === null ? await defaultName(def.key, me.firmId) : safeFilename(given);
  if (!filename) return redirectWithToast(request, back, { type: "error", key: "table:filenameRequired" });

  const query = apiExportQuery(state);
  // Without a sort of its own, the API's default order applies (it leaves out fields the role cannot read).
  if (!url.searchParams.get("sort")) query.delete("sort");
  const response = await api.raw(`${def.apiPath}/export?${query}`, { accept: "text/csv" }).catch((error: unknown) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (!response?.ok || !response.body) return redirectWithToast(request, back, { type: "error", key: "errors:tableExport" });

  return new Response(response.body, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": attachmentHeader(filename), "Cache-Control": "no-store" },
  });
}
