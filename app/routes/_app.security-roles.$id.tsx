import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RoleEditor } from "../components/roles/RoleEditor";
import { loadRoleEditor, roleEditorAction } from "../components/roles/role-editor.server";

// One security role: its users and permission matrix, changed and deleted here.

export const loader = ({ request, params }: LoaderFunctionArgs) => loadRoleEditor(request, params.id ?? "");

export const action = ({ request, params }: ActionFunctionArgs) => roleEditorAction(request, params.id ?? "");

export default function SecurityRole() {
  const { editor } = useLoaderData<typeof loader>();
  return <RoleEditor loaded={editor} posted={useActionData<typeof action>()} />;
}

export { PageError as ErrorBoundary } from "../components/PageError";
