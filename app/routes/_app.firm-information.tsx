import { Stack } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EntitledFeaturesCard } from "../components/firm/EntitledFeaturesCard";
import { FirmLinks } from "../components/firm/FirmLinks";
import { FirmSettingsForm } from "../components/firm/FirmSettingsForm";
import { LogoForm } from "../components/firm/LogoForm";
import { FIRM_INFORMATION_PAGE } from "../components/firm/firm-fields";
import { firmSettingsAction, firmSettingsData } from "../components/firm/firm-settings.server";

// Spec §2: /firm-information, the firm settings (§3), the logo, and links to the pages that own
// the storage hierarchy and the walls.

export const handle = { titleKey: "pages.firmInformation" };

export function loader({ request }: LoaderFunctionArgs) {
  return firmSettingsData(request, FIRM_INFORMATION_PAGE);
}

export function action({ request }: ActionFunctionArgs) {
  return firmSettingsAction(request, FIRM_INFORMATION_PAGE);
}

export default function FirmInformation() {
  const { firm, templates, timeZones, canEdit } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return (
    <Stack maw={1000}>
      <LogoForm firm={firm} canEdit={canEdit} />
      <FirmSettingsForm page={FIRM_INFORMATION_PAGE} firm={firm} templates={templates} timeZones={timeZones} canEdit={canEdit} result={posted?.result} />
      <EntitledFeaturesCard entitled={firm.entitled_features} />
      <FirmLinks />
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
