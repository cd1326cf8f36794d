import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RoleEditor } from "../components/roles/RoleEditor";
import { loadRoleEditor, roleEditorAction } from "../components/roles/role-editor.server";

// A new security role: name, users and the permission matrix, saved as the binary role message.

export const loader = ({ request }: LoaderFunctionArgs) => loadRoleEditor(request, null);

export const action = ({ request }: ActionFunctionArgs) => roleEditorAction(request, null);

export default function NewSecurityRole() {
  const { editor } = useLoaderData<typeof loader>();
  return <RoleEditor loaded={editor} posted={useActionData<typeof action>()} />;
}

export { PageError as ErrorBoundary } from "../components/PageError";
