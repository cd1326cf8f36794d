import { Stack } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FirmSettingsForm } from "../components/firm/FirmSettingsForm";
import { SPECIAL_HANDLING_PAGE } from "../components/firm/firm-fields";
import { firmSettingsAction, firmSettingsData } from "../components/firm/firm-settings.server";

// Spec §2: /special-handling, notices held for manual processing and who is told about them.

export const handle = { titleKey: "pages.specialHandling" };

export function loader({ request }: LoaderFunctionArgs) {
  return firmSettingsData(request, SPECIAL_HANDLING_PAGE);
}

export function action({ request }: ActionFunctionArgs) {
  return firmSettingsAction(request, SPECIAL_HANDLING_PAGE);
}

export default function SpecialHandling() {
  const { firm, templates, timeZones, canEdit } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return (
    <Stack maw={1000}>
      <FirmSettingsForm page={SPECIAL_HANDLING_PAGE} firm={firm} templates={templates} timeZones={timeZones} canEdit={canEdit} result={posted?.result} />
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
