import type { LoaderFunctionArgs } from "@remix-run/node";
import { dictionaryExport } from "../components/dictionary/dictionary.server";

// /dictionary/export: the CSV download of every entry, as the API writes it.

export function loader({ request }: LoaderFunctionArgs) {
  return dictionaryExport(request);
}
