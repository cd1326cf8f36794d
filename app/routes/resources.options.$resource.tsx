import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { searchOptions } from "../components/fields/record-api.server";
import { TYPEAHEAD_OPTIONS, referenceSource } from "../components/fields/reference-sources";
import { requireUser } from "../utils/auth.server";

// Search as you type for reference pickers: /resources/options/<key>?q=text answers the first
// matches as JSON { options: [{ value, label }], total, query }. The API decides what may be read.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const source = referenceSource(params.resource);
  if (!source) throw data({ key: "errors:notFound" }, { status: 404 });
  const { api } = await requireUser(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const found = await searchOptions(api, source, { q, max: TYPEAHEAD_OPTIONS });
  // Plain JSON: the pickers read it with fetch while the user types.
  return Response.json(found, { headers: { "Cache-Control": "no-store" } });
}
