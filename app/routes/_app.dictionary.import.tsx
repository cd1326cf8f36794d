import { Card, Stack } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { DictionaryImportForm } from "../components/dictionary/DictionaryImportForm";
import { dictionaryImportAction } from "../components/dictionary/dictionary.server";
import { requireUser } from "../utils/auth.server";

// /dictionary/import: the upload form on a page of its own; a refused file comes back here with
// every bad line.

export const handle = { titleKey: "pages.dictionaryImport" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "firmAccess");
  return data(null);
}

export function action({ request }: ActionFunctionArgs) {
  return dictionaryImportAction(request);
}

export default function DictionaryImport() {
  const posted = useActionData<typeof action>();
  return (
    <Stack maw={900}>
      <Card withBorder>
        <DictionaryImportForm errors={posted?.errors} />
      </Card>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
