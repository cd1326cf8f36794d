import type { ActionFunctionArgs } from "@remix-run/node";
import { exportDownload } from "../components/billing/exports-page.server";

/** The cost load file (LEDES 1998B or CSV) of a period, client and matter. */
export function action({ request }: ActionFunctionArgs) {
  return exportDownload(request, "costs");
}
