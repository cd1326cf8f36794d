import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportList } from "../components/table/export.server";

// /<key>/export: the CSV download of a list page.

export const loader = ({ request, params }: LoaderFunctionArgs) => exportList(request, params.resource ?? "");
