import { Anchor, Button, Group, Stack, Text } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TrackingAction, TrackingView } from "../../common/case-tracking";
import { formatCents } from "./money";

/** Where the tracking actions of a case are posted, and where a confirmation page is without JavaScript. */
export const trackingPath = (caseId: string) => `/cases/${encodeURIComponent(caseId)}/tracking`;
export const casePath = (caseId: string) => `/cases/${encodeURIComponent(caseId)}`;

/**
 * What an action costs or ends, in words, and the form that does it: inside the dialog with
 * JavaScript, on a page of its own without. Cancel closes the dialog, or goes back to the case.
 */
export function TrackingConfirmation({
  caseId,
  action,
  tracking,
  onCancel,
}: {
  caseId: string;
  action: TrackingAction;
  tracking: TrackingView;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const prices = { fee: formatCents(tracking.monthly_fee_cents, tracking.currency), perDocument: formatCents(tracking.per_document_cents, tracking.currency) };
  return (
    <Form method="post" action={trackingPath(caseId)} data-testid={`confirm-${action}`}>
      <input type="hidden" name="action" value={action} />
      <Stack gap="sm">
        <Text size="sm">{t(`tracking.consequence.${action}`, prices)}</Text>
        <Group>
          <Button type="submit" loading={busy} color={action === "subscribe" || action === "resume" ? undefined : "red"}>
            {t(`tracking.confirm.${action}`)}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t("wizard:cancel")}
            </Button>
          ) : (
            <Anchor component={Link} to={casePath(caseId)} size="sm">
              {t("wizard:cancel")}
            </Anchor>
          )}
        </Group>
      </Stack>
    </Form>
  );
}
