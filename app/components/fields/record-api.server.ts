import type { ResourceDef } from "../../common/resources/types";
import { toastForApiError } from "../../utils/api-errors";
import { type ApiRequest, ApiError, errorOf } from "../../utils/api.server";
import type { ApiClient } from "../../utils/auth.server";
import { FALLBACK_OPTIONS, type PickerData, type ReferenceSource, optionLabel, referenceSource } from "./reference-sources";

// The ECFX API calls of the record pages: read, create, update, delete, and the searches behind
// reference pickers and reference titles. Writes answer with the API's error instead of
// throwing, because a refused write is shown on the form, not as an error page.

export type Row = Record<string, unknown>;
export type ApiOutcome<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export async function call<T>(api: ApiClient, path: string, req: Omit<ApiRequest, "token">): Promise<ApiOutcome<T>> {
  try {
    const response = await api.raw(path, req);
    if (!response.ok) return { ok: false, error: await errorOf(response, path) };
    return { ok: true, data: (response.status === 204 ? undefined : await response.json()) as T };
  } catch (error) {
    // The API could not be reached: the same answer as any other failed write.
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}

/** The words of a failed call: the API's message (409s carry the spec's sentences), or the catalogue's. */
export function apiMessage(error: ApiError): string {
  if (error.status === 409 && error.body.message) return error.body.message;
  const toast = toastForApiError(error.status, error.body.message);
  return toast.text ?? toast.key ?? "errors:somethingWrong";
}

const recordPath = (def: ResourceDef, id: string) => `${def.apiPath}/${encodeURIComponent(id)}`;

/** One record; a missing one ends in the not-found page, a denied one on /success. */
export async function readRecord(api: ApiClient, def: ResourceDef, id: string): Promise<Row> {
  return (await api.json<Row>(recordPath(def, id))).data;
}

export const createRecord = (api: ApiClient, apiPath: string, values: Row) => call<Row>(api, apiPath, { method: "POST", json: values });

export const updateRecord = (api: ApiClient, def: ResourceDef, id: string, values: Row) => call<Row>(api, recordPath(def, id), { method: "PUT", json: values });

export const deleteRecord = (api: ApiClient, def: ResourceDef, id: string) => call<undefined>(api, recordPath(def, id), { method: "DELETE" });

interface SearchRequest {
  q?: string;
  max: number;
  ids?: string[];
}

/** Options of a picker from the source's search, by free text or by ids, with the number that matched. */
export async function searchOptions(api: ApiClient, source: ReferenceSource, req: SearchRequest): Promise<PickerData> {
  const params = new URLSearchParams({ max: String(req.max), sort: source.titleField });
  const q = req.q?.trim() ?? "";
  if (q) params.set("freeText", q);
  if (req.ids?.length) params.set("filter.id", req.ids.join(","));
  const path = `${source.apiPath}/search?${params.toString()}`;
  try {
    const response = await api.raw(path);
    if (!response.ok) {
      await errorOf(response, path);
      return { options: [], total: 0, query: q, failed: true };
    }
    const rows = (await response.json()) as Row[];
    return {
      options: rows.map((row) => ({ value: String(row.id), label: optionLabel(row, source.titleField) })),
      total: Number(response.headers.get("x-total-count") ?? rows.length),
      query: q,
    };
  } catch (error) {
    if (error instanceof ApiError) return { options: [], total: 0, query: q, failed: true };
    throw error;
  }
}

/** A picker on a form: its input name, the registry key it points to, its current values. */
export interface PickerRequest {
  name: string;
  reference: string;
  selected: string[];
  /** Text typed into the no-JS search of this picker. */
  query?: string;
}

/**
 * The first options of each picker (narrowed by its search text), always including the values
 * already chosen so that a selection never disappears from its list.
 */
export async function pickerData(api: ApiClient, pickers: PickerRequest[]): Promise<Record<string, PickerData>> {
  const cache = new Map<string, Promise<PickerData>>();
  const entries = await Promise.all(
    pickers.map(async (picker): Promise<[string, PickerData]> => {
      const source = referenceSource(picker.reference);
      if (!source) return [picker.name, { options: [], total: 0, query: "", failed: true }];
      const q = picker.query?.trim().slice(0, 200) ?? "";
      const cacheKey = `${source.key}\n${q}`;
      let listed = cache.get(cacheKey);
      if (!listed) {
        listed = searchOptions(api, source, { q, max: FALLBACK_OPTIONS });
        cache.set(cacheKey, listed);
      }
      const list = await listed;
      const missing = picker.selected.filter((id) => !list.options.some((o) => o.value === id));
      if (missing.length === 0) return [picker.name, list];
      const chosen = await searchOptions(api, source, { ids: missing, max: FALLBACK_OPTIONS });
      return [picker.name, { ...list, options: [...chosen.options, ...list.options] }];
    }),
  );
  return Object.fromEntries(entries);
}

/** Titles of referenced entries by registry key and id, for showing references as names. */
export async function referenceTitles(api: ApiClient, refs: { reference: string; ids: string[] }[]): Promise<Record<string, Record<string, string>>> {
  const wanted = new Map<string, Set<string>>();
  for (const { reference, ids } of refs) {
    if (!referenceSource(reference) || ids.length === 0) continue;
    const set = wanted.get(reference) ?? new Set<string>();
    ids.forEach((id) => set.add(id));
    wanted.set(reference, set);
  }
  const entries = await Promise.all(
    [...wanted].map(async ([reference, ids]) => {
      const found = await searchOptions(api, referenceSource(reference)!, { ids: [...ids], max: FALLBACK_OPTIONS });
      return [reference, Object.fromEntries(found.options.map((o) => [o.value, o.label]))] as const;
    }),
  );
  return Object.fromEntries(entries);
}
