import { Alert, Anchor, Button, Group, Stack, Text } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type RetrieveMode, type RetrieveView, retrieveUnderWay } from "../../common/case-tracking";
import { CardSection } from "../inbox/CardSection";
import { casePath } from "./TrackingConfirmation";

export const retrievePath = (caseId: string) => `/cases/${encodeURIComponent(caseId)}/retrieve`;

function RetrieveButton({ caseId, mode, primary, busy }: { caseId: string; mode: RetrieveMode; primary: boolean; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action={retrievePath(caseId)}>
      <input type="hidden" name="mode" value={mode} />
      <Button type="submit" variant={primary ? "filled" : "default"} disabled={busy}>
        {t(`retrieve.actions.${mode}`)}
      </Button>
    </Form>
  );
}

/**
 * Case retrieve (spec §4; only where the installation turns it on): the last retrieve's status,
 * "Update case" and "Retrieve documents"; when the update failed, the documents are offered anyway.
 */
export function RetrievePanel({ caseId, retrieve }: { caseId: string; retrieve: RetrieveView }) {
  const { t } = useTranslation();
  const submitting = useNavigation().state !== "idle";
  const underWay = retrieveUnderWay(retrieve.status);
  const failedUpdate = retrieve.status === "Update Failed";
  return (
    <CardSection title={t("retrieve.title")} testId="case-retrieve">
      <Stack gap="xs">
        <Text size="sm" data-testid="retrieve-status">
          {t("retrieve.status", { status: t(`retrieve.statuses.${retrieve.status}`) })}
          {retrieve.reason && !failedUpdate ? ` ${retrieve.reason}` : ""}
        </Text>
        {!retrieve.court_connected ? (
          <Text size="sm" c="dimmed">
            {t("retrieve.noCourt")}
          </Text>
        ) : null}
        {failedUpdate ? (
          <Alert color="orange" title={t("retrieve.updateFailedTitle")} data-testid="retrieve-anyway">
            <Text size="sm" mb="sm">
              {t("retrieve.updateFailed", { reason: retrieve.reason })}
            </Text>
            {retrieve.can_change ? <RetrieveButton caseId={caseId} mode="documents" primary busy={submitting} /> : null}
          </Alert>
        ) : null}
        {underWay ? (
          <Anchor component={Link} to={casePath(caseId)} size="sm">
            {t("retrieve.refresh")}
          </Anchor>
        ) : null}
        {retrieve.can_change && retrieve.court_connected ? (
          <Group gap="sm">
            <RetrieveButton caseId={caseId} mode="update" primary={!failedUpdate} busy={submitting || underWay} />
            {failedUpdate ? null : <RetrieveButton caseId={caseId} mode="documents" primary={false} busy={submitting || underWay} />}
          </Group>
        ) : null}
      </Stack>
    </CardSection>
  );
}
