import { Alert, Badge, Group, Stack, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { useFormatMoment } from "../../utils/dates";
import type { InboxCard } from "../../common/inbox-card";
import { ItemActions } from "./ItemActions";

/** The item's subject, when and how it came, its status badges, actions and the reason it stopped. */
export function CardHeader({ item, canChange }: { item: InboxCard["item"]; canChange: boolean }) {
  const { t } = useTranslation("inbox");
  const { t: tr } = useTranslation("resources");
  const formatDate = useFormatMoment();
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h4" data-testid="card-subject">
            {item.subject || item.id}
          </Title>
          <Text size="sm" c="dimmed">
            {t("card.received", {
              date: item.created_at === undefined ? "" : formatDate(item.created_at, "second"),
              source: tr(`inbox-items.options.source.${item.source}`),
            })}
            <CardSender item={item} />
          </Text>
          <Group gap="xs">
            <Badge data-testid="card-status">{tr(`inbox-items.options.status.${item.status}`)}</Badge>
            <Badge variant="light">{tr(`inbox-items.options.disposition.${item.disposition}`)}</Badge>
            {item.action_required !== "NONE" ? <Badge color="orange">{tr(`inbox-items.options.action_required.${item.action_required}`)}</Badge> : null}
          </Group>
        </Stack>
        {canChange ? <ItemActions ids={[item.id]} /> : null}
      </Group>
      {item.reason ? (
        <Alert color="orange" title={t("card.reason")} data-testid="card-reason">
          {item.reason}
        </Alert>
      ) : null}
      {item.disposition_text ? <Text size="sm">{item.disposition_text}</Text> : null}
    </>
  );
}

/**
 * Who wrote the message (its From header) and, when another mailbox passed it on, the envelope
 * sender it was received from (decision 104). Messages kept before the From header was show the envelope.
 */
export function CardSender({ item }: { item: InboxCard["item"] }) {
  const { t } = useTranslation("inbox");
  const from = item.from_address || item.sender || "";
  const envelope = item.sender && item.sender.toLowerCase() !== from.toLowerCase() ? item.sender : "";
  return (
    <>
      {from ? (
        <>
          {" · "}
          <span data-testid="card-from">{`${t("card.from")} ${from}`}</span>
        </>
      ) : null}
      {envelope ? (
        <>
          {" · "}
          <span data-testid="card-received-from">{t("card.receivedFrom", { sender: envelope })}</span>
        </>
      ) : null}
    </>
  );
}
