import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DictionaryEntryForm } from "../components/dictionary/DictionaryEntryForm";
import { dictionaryEntryAction, dictionaryEntryData } from "../components/dictionary/dictionary.server";

// /dictionary/edit?namespace=&key=: one entry, its default, the firm's text and a reset.

export const handle = { titleKey: "pages.dictionaryEntry" };

export function loader({ request }: LoaderFunctionArgs) {
  return dictionaryEntryData(request);
}

export function action({ request }: ActionFunctionArgs) {
  return dictionaryEntryAction(request);
}

export default function DictionaryEntry() {
  const { entry, canEdit } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return <DictionaryEntryForm entry={entry} canEdit={canEdit} posted={posted} />;
}

export { PageError as ErrorBoundary } from "../components/PageError";
