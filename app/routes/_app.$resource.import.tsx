import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ImportPage } from "../components/import/ImportPage";
import { LINES_PER_PAGE } from "../common/import/format";
import { importView, importing, submitImport } from "../components/import/import.server";
import { useImportView } from "../components/import/use-import-view";
import { findResource } from "../common/resources";

// /<key>/import: upload a .txt file of comma-separated values; ?job=<id> shows the job's
// progress, then its report.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { def, api } = await importing(request, params.resource);
  const view = await importView(api, def, new URL(request.url));
  return data({ resourceKey: def.key, view, pageTitle: { key: "transfer:import.heading", values: { resource: def.key } } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { def, api } = await importing(request, params.resource);
  const outcome = await submitImport(request, api, def);
  if (outcome instanceof Response) return outcome;
  return data(outcome);
}

export default function ImportResource() {
  const { resourceKey, view: loaded } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const location = useLocation();
  const view = useImportView(loaded, `${location.pathname}?job=${encodeURIComponent(loaded.job?.id ?? "")}`);
  return <ImportPage def={findResource(resourceKey)!} view={view} posted={posted} size={LINES_PER_PAGE} />;
}

export { PageError as ErrorBoundary } from "../components/PageError";
