import { Stack } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ListActions } from "../components/ListActions";
import { ResourceTable } from "../components/table/ResourceTable";
import { tableAction } from "../components/table/table-actions.server";
import { loadTable } from "../components/table/table-data.server";
import { type InternalWalls, WallsSwitch } from "../components/walls/WallsSwitch";
import { REGISTRY } from "../common/resources";
import { resourceTitleKey } from "../common/resources/types";
import { allows } from "../common/access";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

// The ethical walls: the shared table of walls, and above it whether the firm's walls hold.

const def = REGISTRY["ethical-walls"];
const API_PATH = "/api/v1/firm/internal-walls";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [table, { me, api }] = await Promise.all([loadTable(request, def, context), requireUser(request, def.accessKey)]);
  const { data: walls } = await api.json<InternalWalls>(API_PATH);
  return data({ table, walls, canEdit: allows(me.userRole.firmAccess, "write"), pageTitle: { key: resourceTitleKey(def.key) } });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  if (form.get("intent") !== "walls") return tableAction(request, def);
  const { api } = await requireUser(request, def.accessKey);
  const response = await api.raw(API_PATH, { method: "PUT", json: { enabled: form.get("enabled") === "on" } });
  if (!response.ok) {
    // The API says why (a user behind a wall may not switch walls); otherwise the spec's message.
    const body = (await response.json().catch(() => ({}))) as { message?: unknown };
    const text = typeof body.message === "string" ? body.message : undefined;
    return redirectWithToast(request, "/ethical-walls", text ? { type: "error", text } : { type: "error", key: "errors:settingsUpdate" });
  }
  return redirectWithToast(request, "/ethical-walls", { type: "success", key: "walls:saved" });
}

export default function EthicalWalls() {
  const { table, walls, canEdit } = useLoaderData<typeof loader>();
  return (
    <Stack>
      <WallsSwitch walls={walls} canEdit={canEdit} />
      <ResourceTable table={table} actions={<ListActions def={def} fullAccess={table.fullAccess} />} />
    </Stack>
  );
}
