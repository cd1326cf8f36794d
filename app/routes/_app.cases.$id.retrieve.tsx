import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RETRIEVE_MODES, type RetrieveMode } from "../common/case-tracking";
import { backToCase, requireCasePart } from "../components/case-tracking/case-actions.server";
import { browserHost } from "../components/record-sections/sections.server";
import { pageNotFound } from "../utils/not-found.server";
import { readForm } from "../utils/request-body.server";

// Case retrieve's form posts (spec §4, §6): only where the installation turns it on
// (ECFX_CASE_RETRIEVE); the API decides again from the same setting.

const isMode = (value: unknown): value is RetrieveMode => typeof value === "string" && (RETRIEVE_MODES as readonly string[]).includes(value);

/** Nothing to show: the panel is on the case page. */
export function loader({ request }: LoaderFunctionArgs) {
  return pageNotFound(request);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const signedIn = await requireCasePart(request, "RETRIEVE");
  const caseId = params.id ?? "";
  const mode = (await readForm(request)).get("mode");
  if (!isMode(mode)) return pageNotFound(request);
  const call = () =>
    signedIn.api.json(`/api/v1/case/${encodeURIComponent(caseId)}/retrieve`, { method: "POST", json: { mode }, forwardedHost: browserHost(request) });
  return backToCase(request, caseId, signedIn, call, `retrieve.done.${mode}`);
}
