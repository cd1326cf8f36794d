import { Stack } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ListActions } from "../components/ListActions";
import { PreferenceOrder } from "../components/preferences/PreferenceOrder";
import { isOrderIntent } from "../components/preferences/preference-order";
import { loadPreferenceOrder, savePreferenceOrder } from "../components/preferences/preference-order.server";
import { ResourceTable } from "../components/table/ResourceTable";
import { tableAction } from "../components/table/table-actions.server";
import { loadTable } from "../components/table/table-data.server";
import { REGISTRY } from "../common/resources";
import { resourceTitleKey } from "../common/resources/types";
import { readForm } from "../utils/request-body.server";

// The jurisdiction preferences: their order above the shared table of them.

const def = REGISTRY["jurisdiction-preferences"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [table, order] = await Promise.all([loadTable(request, def, context), loadPreferenceOrder(request)]);
  return data({ table, ...order, pageTitle: { key: resourceTitleKey(def.key) } });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  return isOrderIntent(String(form.get("intent") ?? "")) ? savePreferenceOrder(request) : tableAction(request, def);
}

export default function JurisdictionPreferences() {
  const { table, preferences, canReorder } = useLoaderData<typeof loader>();
  return (
    <Stack>
      <PreferenceOrder preferences={preferences} canReorder={canReorder} />
      <ResourceTable table={table} actions={<ListActions def={def} fullAccess={table.fullAccess} />} />
    </Stack>
  );
}
