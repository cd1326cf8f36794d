import type { ActionFunctionArgs } from "@remix-run/node";
import { exportDownload } from "../components/billing/exports-page.server";

/** The review time of a period, client and matter (LEDES 1998B or Sage Timeslips' import layout). */
export function action({ request }: ActionFunctionArgs) {
  return exportDownload(request, "time");
}
