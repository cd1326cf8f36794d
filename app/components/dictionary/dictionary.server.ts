import { data, unstable_createMemoryUploadHandler } from "@remix-run/node";
import { allows } from "../../common/access";
import type { DictionaryRow } from "../../common/dictionary";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { pageFromUrl } from "../../utils/paging";
import { readForm, readMultipartForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { type DictionaryFilter, dictionaryFilterOf, entryHref } from "./dictionary-url";

// The console's side of /dictionary: thin calls to the API's dictionary, firm READ to look,
// FULL to change (the API checks both again).

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** The list page: the rows the URL's search, area and "changed" filter select, one page of them. */
export async function dictionaryListData(request: Request) {
  const { me, api } = await requireUser(request, "firmAccess");
  const url = new URL(request.url);
  const filter = dictionaryFilterOf(url.searchParams);
  const { page, size, offset } = pageFromUrl(url);
  const query = new URLSearchParams({ max: String(size), offset: String(offset) });
  if (filter.q) query.set("freeText", filter.q);
  if (filter.namespace) query.set("namespace", filter.namespace);
  if (filter.show !== "all") query.set("overridden", String(filter.show === "overridden"));
  const [list, namespaces] = await Promise.all([
    api.json<DictionaryRow[]>(`/api/v1/dictionary/search?${query}`),
    api.json<string[]>("/api/v1/dictionary/namespaces"),
  ]);
  const total = Number(list.response.headers.get("x-total-count") ?? list.data.length);
  return data({ rows: list.data, total, page, size, filter, namespaces: namespaces.data, canEdit: allows(me.userRole.firmAccess, "write") });
}

/** One entry, addressed by ?namespace=&key=. */
export async function dictionaryEntryData(request: Request) {
  const { me, api } = await requireUser(request, "firmAccess");
  const { namespace, key } = entryOf(new URL(request.url).searchParams);
  const entry = await api.json<DictionaryRow>(`/api/v1/dictionary/${encodeURIComponent(namespace)}/${encodeURIComponent(key)}`);
  return data({ entry: entry.data, canEdit: allows(me.userRole.firmAccess, "write") });
}

function entryOf(params: URLSearchParams): { namespace: string; key: string } {
  const namespace = params.get("namespace") ?? "";
  const key = params.get("key") ?? "";
  if (!namespace || !key) throw data({ key: "errors:notFound" }, { status: 404 });
  return { namespace, key };
}

/** Save or reset one entry; a refused text comes back with the API's reasons and what was typed. */
export async function dictionaryEntryAction(request: Request) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readForm(request);
  const { namespace, key } = entryOf(new URL(request.url).searchParams);
  const path = `/api/v1/dictionary/${encodeURIComponent(namespace)}/${encodeURIComponent(key)}`;
  const reset = form.get("intent") === "reset";
  const value = String(form.get("value") ?? "");
  try {
    if (reset) await api.json(path, { method: "DELETE" });
    else await api.json(path, { method: "PUT", json: { value } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      return data({ value, errors: error.body.fieldErrors?.value ?? [error.body.message ?? ""] }, { status: 400 });
    }
    throw error;
  }
  return redirectWithToast(request, entryHref(namespace, key), { type: "success", key: reset ? "dictionary.wasReset" : "dictionary.saved" });
}

/** The CSV of every entry, passed through from the API. */
export async function dictionaryExport(request: Request) {
  const { api } = await requireUser(request, "firmAccess");
  const response = await api.raw("/api/v1/dictionary/export", { accept: "text/csv" });
  if (!response.ok || !response.body) return redirectWithToast(request, "/dictionary", { type: "error", key: "errors:tableExport" });
  return new Response(response.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": response.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "no-store",
    },
  });
}

/** The uploaded file goes to the API whole; its refusal lists every bad line. */
export async function dictionaryImportAction(request: Request) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readMultipartForm(request, unstable_createMemoryUploadHandler({ maxPartSize: MAX_IMPORT_BYTES }));
  const file = form.get("file");
  const text = file instanceof File ? await file.text() : "";
  try {
    const result = await api.json<{ changed: number }>("/api/v1/dictionary/import", { method: "POST", body: text, contentType: "text/csv" });
    return redirectWithToast(request, "/dictionary", { type: "success", key: "dictionary.imported", values: { count: result.data.changed } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      return data({ errors: error.body.fieldErrors?.file ?? [error.body.message ?? ""] }, { status: 400 });
    }
    throw error;
  }
}

export type { DictionaryFilter };
