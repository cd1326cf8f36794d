import { Anchor, Card, Stack, Title } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type TrackingView, isTrackingAction, trackingActionsFrom } from "../common/case-tracking";
import { backToCase, requireCasePart } from "../components/case-tracking/case-actions.server";
import { TrackingConfirmation, casePath } from "../components/case-tracking/TrackingConfirmation";
import { readForm } from "../utils/request-body.server";
import { pageNotFound } from "../utils/not-found.server";

// ECFX Track's confirmation page, the way to subscribe, stop, resume or unsubscribe without
// JavaScript (with it, the case page's dialog posts the same form here).

export const handle = { titleKey: "pages.caseTracking" };

const q = encodeURIComponent;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireCasePart(request, "ECFX_TRACK");
  const caseId = params.id ?? "";
  const action = new URL(request.url).searchParams.get("action");
  const { data: tracking } = await api.json<TrackingView>(`/api/v1/case/${q(caseId)}/tracking`);
  // An action the state does not allow (an old link): the case page shows what is possible.
  if (!isTrackingAction(action) || !tracking.can_change || !trackingActionsFrom(tracking.state).includes(action)) return pageNotFound(request);
  return data({ caseId, action, tracking });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const signedIn = await requireCasePart(request, "ECFX_TRACK");
  const caseId = params.id ?? "";
  const form = await readForm(request);
  const action = form.get("action");
  if (!isTrackingAction(action)) return pageNotFound(request);
  const call = () => signedIn.api.json(`/api/v1/case/${q(caseId)}/tracking`, { method: "POST", json: { action } });
  return backToCase(request, caseId, signedIn, call, `tracking.done.${action}`);
}

export default function TrackingConfirmationPage() {
  const { caseId, action, tracking } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <Stack maw={700}>
      <Anchor component={Link} to={casePath(caseId)} size="sm">
        {t("tracking.backToCase")}
      </Anchor>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t(`tracking.dialogTitle.${action}`)}
        </Title>
        <TrackingConfirmation caseId={caseId} action={action} tracking={tracking} />
      </Card>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
