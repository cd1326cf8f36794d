import { Anchor, Badge, Stack, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { WebhookDeliveryRow } from "../../common/resources/webhooks";
import { useFormatMoment } from "../../utils/dates";
import { CardTable } from "../inbox/CardTable";

const STATUS_COLOURS: Record<string, string> = { pending: "blue", succeeded: "green", failed: "orange", abandoned: "red" };

export function DeliveryStatus({ status }: { status: string }) {
  const { t } = useTranslation("resources");
  return (
    <Badge color={STATUS_COLOURS[status] ?? "gray"} variant="light">
      {t(`webhooks.deliveries.statuses.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** The latest deliveries under a webhook's record, and the way to its full log and tools. */
export function WebhookDeliveries({ webhookId, rows }: { webhookId: string; rows: WebhookDeliveryRow[] }) {
  const { t } = useTranslation("resources");
  const formatDate = useFormatMoment();
  return (
    <Stack gap="xs">
      <Anchor component={Link} to={`/webhooks/${encodeURIComponent(webhookId)}/deliveries`} data-testid="webhook-deliveries-link">
        {t("webhooks.deliveries.openLog")}
      </Anchor>
      {rows.length === 0 ? (
        <Text size="sm">{t("webhooks.deliveries.empty")}</Text>
      ) : (
        <CardTable rows={rows} empty="" cells={(d) => [formatDate(d.created_at), d.event, <DeliveryStatus key="status" status={d.status} />]} />
      )}
    </Stack>
  );
}
