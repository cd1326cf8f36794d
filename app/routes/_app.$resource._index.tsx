import { type ActionFunctionArgs, type LoaderFunctionArgs, data, redirect } from "@remix-run/node";
import { type ShouldRevalidateFunctionArgs, useLoaderData } from "@remix-run/react";
import { ListActions } from "../components/ListActions";
import { ResourceTable } from "../components/table/ResourceTable";
import { TABLE_INTENTS } from "../components/table/intents";
import { tableAction } from "../components/table/table-actions.server";
import { loadTable } from "../components/table/table-data.server";
import { findResource } from "../common/resources";
import { resourceTitleKey } from "../common/resources/types";
import { requireUser } from "../utils/auth.server";
import { routeFor } from "../utils/route-table";

// The list page of every registry entry: /cases, /clients, /practice-groups, ...

/** Not an entity: as for any unknown path, the declared route's access key applies, then the dashboard. */
async function notAnEntity(request: Request): Promise<never> {
  const route = routeFor(new URL(request.url).pathname);
  await requireUser(request, route?.accessKey ?? null);
  throw redirect("/dashboard");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const def = findResource(params.resource ?? "");
  if (!def) return notAnEntity(request);
  const { table, headers } = await loadTable(request, def);
  return data({ table, pageTitle: { key: resourceTitleKey(def.key) } }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const def = findResource(params.resource ?? "");
  if (!def) return notAnEntity(request);
  return tableAction(request, def);
}

// A saved column layout changes nothing the loader reads into the page.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === TABLE_INTENTS.layout ? false : defaultShouldRevalidate;
}

export default function ResourceList() {
  const { table } = useLoaderData<typeof loader>();
  const def = findResource(table.resourceKey);
  return <ResourceTable table={table} actions={def ? <ListActions def={def} fullAccess={table.fullAccess} /> : null} />;
}
