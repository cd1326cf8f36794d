import { Button, Group, Modal, Stack, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type TrackingAction, type TrackingView, trackingActionsFrom } from "../../common/case-tracking";
import { useFormatMoment } from "../../utils/dates";
import { useHydrated } from "../../utils/use-hydrated";
import { CardSection } from "../inbox/CardSection";
import { formatCents } from "./money";
import { TrackingConfirmation, trackingPath } from "./TrackingConfirmation";

/**
 * ECFX Track on a case page (spec §2, §4): its state, its prices, and the actions the state allows,
 * each confirmed first. With JavaScript the confirmation is a dialog; without, each action is a
 * link to a confirmation page that posts the same form.
 */
export function TrackingPanel({ caseId, tracking }: { caseId: string; tracking: TrackingView }) {
  const { t } = useTranslation();
  const formatDate = useFormatMoment();
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState<TrackingAction | null>(null);
  // The page's data comes again after a confirmed action (done or refused): the dialog has done its part.
  useEffect(() => setConfirming(null), [tracking]);
  const since = tracking.state === "STOPPED" ? tracking.stopped_at : (tracking.resumed_at ?? tracking.subscribed_at);
  const documents = tracking.periods.reduce((sum, p) => sum + p.documents, 0);
  const actions = tracking.can_change ? trackingActionsFrom(tracking.state) : [];
  return (
    <CardSection title={t("tracking.title")} testId="case-tracking">
      <Stack gap="xs">
        <Text size="sm" data-testid="tracking-state">
          {t(`tracking.state.${tracking.state}`, { since: since ? formatDate(since) : "" })}
        </Text>
        <Text size="sm" c="dimmed">
          {t("tracking.prices", {
            fee: formatCents(tracking.monthly_fee_cents, tracking.currency),
            perDocument: formatCents(tracking.per_document_cents, tracking.currency),
          })}
          {tracking.periods.length ? ` ${t("tracking.documents", { count: documents })}` : ""}
        </Text>
        {actions.length ? (
          <Group gap="sm">
            {actions.map((action) => (
              <Button
                key={action}
                component={Link}
                to={`${trackingPath(caseId)}?action=${action}`}
                variant={action === "subscribe" || action === "resume" ? "filled" : "default"}
                onClick={(event) => {
                  // With JavaScript the dialog confirms in place; the link is the way without it.
                  if (!hydrated) return;
                  event.preventDefault();
                  setConfirming(action);
                }}
              >
                {t(`tracking.actions.${action}`)}
              </Button>
            ))}
          </Group>
        ) : null}
      </Stack>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={confirming ? t(`tracking.dialogTitle.${confirming}`) : ""} centered>
        {confirming ? <TrackingConfirmation caseId={caseId} action={confirming} tracking={tracking} onCancel={() => setConfirming(null)} /> : null}
      </Modal>
    </CardSection>
  );
}
