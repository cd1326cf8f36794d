import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { type ShouldRevalidateFunctionArgs, useLoaderData } from "@remix-run/react";
import { Stack } from "../utils/mantine";
import { ListActions } from "../components/ListActions";
import { SiblingTabs } from "../components/table/SiblingTabs";
import { ResourceTable } from "../components/table/ResourceTable";
import { TABLE_INTENTS } from "../components/table/intents";
import { tableAction } from "../components/table/table-actions.server";
import { loadTable } from "../components/table/table-data.server";
import { findResource } from "../common/resources";
import { resourceTitleKey } from "../common/resources/types";
import { pageNotFound } from "../utils/not-found.server";

// The list page of every registry entry: /cases, /clients, /practice-groups, ...

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const def = findResource(params.resource ?? "");
  if (!def) return pageNotFound(request);
  const table = await loadTable(request, def, context);
  return data({ table, pageTitle: { key: resourceTitleKey(def.key) } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const def = findResource(params.resource ?? "");
  if (!def) return pageNotFound(request);
  return tableAction(request, def);
}

// A saved column layout changes nothing the loader reads into the page.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === TABLE_INTENTS.layout ? false : defaultShouldRevalidate;
}

export default function ResourceList() {
  const { table } = useLoaderData<typeof loader>();
  const def = findResource(table.resourceKey);
  return (
    <Stack gap="sm">
      <SiblingTabs current={table.resourceKey} keys={table.siblings} />
      <ResourceTable table={table} actions={def ? <ListActions def={def} fullAccess={table.fullAccess} /> : null} />
    </Stack>
  );
}
