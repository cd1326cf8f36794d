import { redirect } from "@remix-run/node";
import type { ResourceDef } from "../../common/resources/types";
import { findResource } from "../../common/resources";
import type { AccessLevel } from "../../common/access";
import { ApiError } from "../../utils/api.server";
import { type ApiClient, requireUser } from "../../utils/auth.server";
import { type TableState, apiSearchQuery, parseTableUrl, tableHref } from "../../utils/table-url";
import { tableColumns, tableSpecOf } from "./columns";
import type { ReferenceTitles } from "./format";
import { arrangeColumns } from "./layout";
import { handoverKey, pageHandover } from "./page-handover.server";
import { readLayout, readWebPreferences } from "./preferences.server";
import { roleAccess } from "./role-access.server";
import { documentOnlyStore } from "../../utils/load-context";
import { type ReferenceOption, type TableBody, type TableData, type TablePage, type TableRow, tableBodyKey } from "./types";

interface Page {
  rows: TableRow[];
  total: number;
  /** By field: titles of the ids the rows name, and the choices of reference filters (few enough to list). */
  titles: ReferenceTitles;
  options: Record<string, ReferenceOption[]>;
  previous?: string;
  next?: string;
  error: TableData["loadError"];
}

const EMPTY = { rows: [], total: 0, titles: {}, options: {} };

// A document's page waits here for the browser's follow-up request (decision 074): about the time
// a slow browser takes to become interactive, and a few megabytes at most.
const handedOver = pageHandover<Page>(15_000, 200);

/** The page of rows with its references' titles and filter choices: one call (`references=1`). */
async function searchPage(api: ApiClient, def: ResourceDef, state: TableState): Promise<Page> {
  try {
    const query = apiSearchQuery(state);
    query.set("references", "1");
    const response = await api.raw(`${def.apiPath}/search?${query}`);
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      return { ...EMPTY, error: { status: response.status, text: body.message ?? response.statusText } };
    }
    const answer = (await response.json()) as Omit<Page, "error">;
    return { ...answer, error: null };
  } catch (error) {
    if (error instanceof ApiError) return { ...EMPTY, error: { status: error.status, text: error.body.message ?? error.message } };
    throw error;
  }
}

/**
 * The list page's data for one registry entry: the role's readable columns in the user's layout,
 * the page of rows the URL asks for, referenced rows' titles, the choices of reference filters and
 * the firm's striping. A URL holding GET-form leftovers is redirected to its canonical form.
 * When the answer is a document, the rows, titles and choices are kept out of the loader data
 * for the server to draw (`context`, decision 074): the browser gets them once.
 */
export async function loadTable(request: Request, def: ResourceDef, context?: unknown): Promise<TablePage> {
  const store = documentOnlyStore(context);
  const table = await wholeTable(request, def, store !== null);
  if (!store) return table;
  const { rows, titles, referenceOptions, ...frame } = table;
  store.set(tableBodyKey(def.key), { rows, titles, referenceOptions } satisfies TableBody);
  return frame;
}

/** `document`: the page is handed over for the browser's follow-up request; otherwise such a page is taken. */
async function wholeTable(request: Request, def: ResourceDef, document: boolean): Promise<TableData> {
  const { auth, me, api } = await requireUser(request, def.accessKey);
  const url = new URL(request.url);
  const token = document ? crypto.randomUUID() : url.searchParams.get("handover");
  const keyOf = (state: TableState) => handoverKey(token ?? "", auth.authToken, def.key, apiSearchQuery(state).toString());
  // The page is searched at once as if every field were readable; most roles restrict no field,
  // and a role that does gets the search again once its field levels are known.
  const everyColumn = tableColumns(def, () => true);
  const assumed = parseTableUrl(
    url.searchParams,
    tableSpecOf(def, everyColumn, () => true),
  ).state;
  const [accessTo, layout, webPreferences, early] = await Promise.all([
    roleAccess(api, me),
    readLayout(api, def.key),
    readWebPreferences(api),
    (!document && token && handedOver.take(keyOf(assumed))) || searchPage(api, def, assumed),
  ]);
  const access = accessTo(def.resource, me.userRole[def.accessKey] ?? "DENY");
  const readable = (field: string) => access.field(field) !== "DENY";
  const columns = tableColumns(def, readable);
  const spec = tableSpecOf(def, columns, readable);
  const parsed = parseTableUrl(url.searchParams, spec);
  if (parsed.needsCanonical) throw redirect(tableHref(url.pathname, parsed.state, spec, url.searchParams));
  const sameQuery = apiSearchQuery(parsed.state).toString() === apiSearchQuery(assumed).toString();
  const page = sameQuery ? early : await searchPage(api, def, parsed.state);
  const handover = document && !page.error ? token : null;
  if (handover) handedOver.handOver(keyOf(parsed.state), page);

  const arranged = arrangeColumns(columns, layout);
  const shown = new Set(arranged.filter((c) => c.visible && c.reference).map((c) => c.field));
  const titles = Object.fromEntries(Object.entries(page.titles).filter(([field]) => shown.has(field)));
  return {
    resourceKey: def.key,
    columns: arranged,
    rows: page.rows.map((row) => tableRow(row, columns)),
    total: page.total,
    cursors: { ...(page.previous ? { previous: page.previous } : {}), ...(page.next ? { next: page.next } : {}) },
    state: parsed.state,
    spec,
    errors: parsed.errors,
    partialRanges: parsed.partialRanges,
    titles,
    referenceOptions: Object.fromEntries(Object.entries(page.options).filter(([field]) => readable(field))),
    loadError: page.error,
    canCreate: access.level === "FULL" && (def.wizard.length > 0 || def.ownEditor === true),
    fullAccess: access.level === "FULL",
    canStripe: me.userRole.firmAccess === "FULL",
    striped: webPreferences?.tableStriped === true,
    layout,
    siblings: siblingTabs(def, (resource) => accessTo(resource, me.userRole[def.accessKey] ?? "DENY").level),
    ...(handover ? { handover } : {}),
  };
}

/**
 * What the page keeps of a row: its id and its columns' values. The search answers every field of
 * the entity, and the rows travel to the browser again for the interactive table (decision 059).
 */
function tableRow(row: TableRow, columns: { field: string }[]): TableRow {
  const kept: TableRow = { id: row.id };
  for (const { field } of columns) if (field in row) kept[field] = row[field];
  return kept;
}

/** The list pages shown as tabs beside this one (the DMS credential types), those the role may read. */
function siblingTabs(def: ResourceDef, level: (resource: string) => AccessLevel): string[] {
  return (def.siblings ?? []).filter((key) => {
    const sibling = findResource(key);
    return sibling !== undefined && level(sibling.resource) !== "DENY";
  });
}
