import { redirect } from "@remix-run/node";
import { type ReferenceSource, referenceSource } from "../fields/reference-sources";
import type { ResourceDef } from "../../common/resources/types";
import { findResource } from "../../common/resources";
import type { AccessLevel } from "../../common/access";
import { ApiError } from "../../utils/api.server";
import { type ApiClient, requireUser } from "../../utils/auth.server";
import { type TableState, apiSearchQuery, parseTableUrl, tableHref } from "../../utils/table-url";
import { type TableColumn, tableColumns, tableSpecOf } from "./columns";
import type { ReferenceTitles } from "./format";
import { arrangeColumns } from "./layout";
import { readLayout, readWebPreferences } from "./preferences.server";
import { roleAccess } from "./role-access.server";
import type { ReferenceOption, TableData, TableRow } from "./types";

/** A reference filter offers a choice of rows up to this many; beyond it, a typed id. */
export const REFERENCE_CHOICES = 100;
// The search API takes at most this many values in one filter.
const IDS_PER_SEARCH = 50;

interface Page {
  rows: TableRow[];
  total: number;
  error: TableData["loadError"];
}

async function searchPage(api: ApiClient, def: ResourceDef, state: TableState): Promise<Page> {
  try {
    const response = await api.raw(`${def.apiPath}/search?${apiSearchQuery(state)}`);
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      return { rows: [], total: 0, error: { status: response.status, text: body.message ?? response.statusText } };
    }
    const rows = (await response.json()) as TableRow[];
    return { rows, total: Number(response.headers.get("x-total-count") ?? rows.length), error: null };
  } catch (error) {
    if (error instanceof ApiError) return { rows: [], total: 0, error: { status: error.status, text: error.body.message ?? error.message } };
    throw error;
  }
}

/** Rows of another entity by id or first in title order; nothing when the role may not read it. */
async function searchOther(api: ApiClient, ref: ReferenceSource, query: URLSearchParams): Promise<{ rows: TableRow[]; total: number }> {
  try {
    const response = await api.raw(`${ref.apiPath}/search?${query}`);
    if (!response.ok) return { rows: [], total: 0 };
    const rows = (await response.json()) as TableRow[];
    return { rows, total: Number(response.headers.get("x-total-count") ?? rows.length) };
  } catch (error) {
    if (error instanceof ApiError) return { rows: [], total: 0 };
    throw error;
  }
}

const titleOf = (ref: ReferenceSource, row: TableRow) => String(row[ref.titleField] ?? row.id);

async function referenceOptions(api: ApiClient, columns: TableColumn[]): Promise<Record<string, ReferenceOption[]>> {
  const out: Record<string, ReferenceOption[]> = {};
  await Promise.all(
    columns.map(async (c) => {
      const ref = referenceSource(c.reference)!;
      const { rows, total } = await searchOther(api, ref, new URLSearchParams({ max: String(REFERENCE_CHOICES), sort: ref.titleField }));
      if (rows.length > 0 && total <= REFERENCE_CHOICES) out[c.field] = rows.map((r) => ({ value: String(r.id), label: titleOf(ref, r) }));
    }),
  );
  return out;
}

/** Titles of the rows the page refers to: one search per referenced entity, known choices reused. */
async function referenceTitles(api: ApiClient, columns: TableColumn[], rows: TableRow[], options: Record<string, ReferenceOption[]>): Promise<ReferenceTitles> {
  const known = new Map<string, Map<string, string>>();
  const wanted = new Map<string, Set<string>>();
  for (const c of columns) {
    const titles = known.get(c.reference!) ?? new Map<string, string>();
    known.set(c.reference!, titles);
    for (const o of options[c.field] ?? []) titles.set(o.value, o.label);
    const ids = wanted.get(c.reference!) ?? new Set<string>();
    wanted.set(c.reference!, ids);
    for (const row of rows) {
      for (const id of [row[c.field]].flat()) {
        if (id !== null && id !== undefined && !titles.has(String(id))) ids.add(String(id));
      }
    }
  }
  await Promise.all(
    [...wanted].map(async ([key, ids]) => {
      const ref = referenceSource(key)!;
      const all = [...ids];
      for (let i = 0; i < all.length; i += IDS_PER_SEARCH) {
        const chunk = all.slice(i, i + IDS_PER_SEARCH);
        const { rows: found } = await searchOther(api, ref, new URLSearchParams({ max: String(chunk.length), "filter.id": chunk.join(",") }));
        for (const r of found) known.get(key)!.set(String(r.id), titleOf(ref, r));
      }
    }),
  );
  return Object.fromEntries(columns.map((c) => [c.field, Object.fromEntries(known.get(c.reference!) ?? [])]));
}

/**
 * The list page's data for one registry entry: the role's readable columns in the user's layout,
 * the page of rows the URL asks for, referenced rows' titles, the choices of reference filters and
 * the firm's striping. A URL holding GET-form leftovers is redirected to its canonical form.
 */
export async function loadTable(request: Request, def: ResourceDef): Promise<{ table: TableData; headers: Headers }> {
  const { me, api, headers } = await requireUser(request, def.accessKey);
  const url = new URL(request.url);
  // The page is searched at once as if every field were readable; most roles restrict no field,
  // and a role that does gets the search again once its field levels are known.
  const everyColumn = tableColumns(def, () => true);
  const assumed = parseTableUrl(
    url.searchParams,
    tableSpecOf(def, everyColumn, () => true),
  ).state;
  const [accessTo, layout, webPreferences, early, options] = await Promise.all([
    roleAccess(api, me),
    readLayout(api, def.key),
    readWebPreferences(api),
    searchPage(api, def, assumed),
    referenceOptions(
      api,
      everyColumn.filter((c) => c.reference && c.filter === "reference"),
    ),
  ]);
  const access = accessTo(def.resource, me.userRole[def.accessKey] ?? "DENY");
  const readable = (field: string) => access.field(field) !== "DENY";
  const columns = tableColumns(def, readable);
  const spec = tableSpecOf(def, columns, readable);
  const parsed = parseTableUrl(url.searchParams, spec);
  if (parsed.needsCanonical) throw redirect(tableHref(url.pathname, parsed.state, spec, url.searchParams), { headers });
  const sameQuery = apiSearchQuery(parsed.state).toString() === apiSearchQuery(assumed).toString();
  const page = sameQuery ? early : await searchPage(api, def, parsed.state);

  const arranged = arrangeColumns(columns, layout);
  const titles = await referenceTitles(
    api,
    arranged.filter((c) => c.visible && c.reference),
    page.rows,
    options,
  );
  return {
    headers,
    table: {
      resourceKey: def.key,
      columns: arranged,
      rows: page.rows,
      total: page.total,
      state: parsed.state,
      spec,
      errors: parsed.errors,
      partialRanges: parsed.partialRanges,
      titles,
      referenceOptions: Object.fromEntries(Object.entries(options).filter(([field]) => readable(field))),
      loadError: page.error,
      canCreate: access.level === "FULL" && (def.wizard.length > 0 || def.ownEditor === true),
      fullAccess: access.level === "FULL",
      canStripe: me.userRole.firmAccess === "FULL",
      striped: webPreferences?.tableStriped === true,
      layout,
      siblings: siblingTabs(def, (resource) => accessTo(resource, me.userRole[def.accessKey] ?? "DENY").level),
    },
  };
}

/** The list pages shown as tabs beside this one (the DMS credential types), those the role may read. */
function siblingTabs(def: ResourceDef, level: (resource: string) => AccessLevel): string[] {
  return (def.siblings ?? []).filter((key) => {
    const sibling = findResource(key);
    return sibling !== undefined && level(sibling.resource) !== "DENY";
  });
}
