import { Alert, Anchor, Button, Card, Code, Group, NativeSelect, Stack, Table, Text, Title } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { WEBHOOK_DELIVERY_STATUSES } from "../common/resources/webhooks";
import { DeliveryStatus } from "../components/record-sections/WebhookDeliveries";
import { deliveriesPath } from "../components/webhooks/delivery-filter";
import { webhookDeliveriesAction, webhookDeliveriesData } from "../components/webhooks/webhook-page.server";
import { useFormatMoment } from "../utils/dates";

// A webhook's delivery log (status filter and paging in the address, so it works without
// JavaScript and can be shared), with re-send, a test event and the signing secret.

export const handle = { titleKey: "pages.webhooks" };

export function loader({ request, params }: LoaderFunctionArgs) {
  return webhookDeliveriesData(request, params.id ?? "");
}

export function action({ request, params }: ActionFunctionArgs) {
  return webhookDeliveriesAction(request, params.id ?? "");
}

export default function WebhookDeliveriesPage() {
  const { webhook, deliveries, filter, canWrite } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { t } = useTranslation(["resources", "wizard", "errors"]);
  const formatDate = useFormatMoment();
  const pages = Math.max(1, Math.ceil(deliveries.total / deliveries.size));
  const here = deliveriesPath(webhook.id, filter);

  return (
    <Stack maw={1100}>
      <Anchor component={Link} to={`/webhooks/${encodeURIComponent(webhook.id)}`} size="sm">
        {webhook.name}
      </Anchor>
      <Title order={2}>{t("webhooks.deliveries.title")}</Title>
      <Text size="sm" c="dimmed">
        {webhook.url}
      </Text>
      {canWrite ? (
        <Group>
          <Form method="post" action={here}>
            <Button type="submit" name="intent" value="test" variant="default">
              {t("webhooks.deliveries.sendTest")}
            </Button>
          </Form>
          <Form method="post" action={here}>
            <Button type="submit" name="intent" value="secret" variant="default">
              {t("webhooks.deliveries.showSecret")}
            </Button>
          </Form>
          <Form method="post" action={here}>
            <Button type="submit" name="intent" value="rotate" variant="default">
              {t("webhooks.deliveries.rotateSecret")}
            </Button>
          </Form>
        </Group>
      ) : null}
      {posted?.secret ? (
        <Alert color="yellow" data-testid="webhook-secret">
          <Text size="sm">{t("webhooks.deliveries.secretOnce")}</Text>
          <Code block>{posted.secret}</Code>
          <Text size="xs" mt="xs">
            {t("webhooks.deliveries.secretHelp")}
          </Text>
        </Alert>
      ) : null}
      {posted?.error ? <Alert color="red">{posted.error}</Alert> : null}
      <Form method="get" action={`/webhooks/${encodeURIComponent(webhook.id)}/deliveries`}>
        <Group align="end">
          <NativeSelect
            name="status"
            label={t("webhooks.deliveries.status")}
            defaultValue={filter.status}
            data={[
              { value: "", label: t("webhooks.deliveries.allStatuses") },
              ...WEBHOOK_DELIVERY_STATUSES.map((value) => ({ value, label: t(`webhooks.deliveries.statuses.${value}`) })),
            ]}
          />
          <Button type="submit" variant="default">
            {t("webhooks.deliveries.filter")}
          </Button>
        </Group>
      </Form>
      <Card withBorder>
        {deliveries.rows.length === 0 ? (
          <Text size="sm">{t("webhooks.deliveries.empty")}</Text>
        ) : (
          <Table data-testid="webhook-delivery-log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("webhooks.deliveries.created")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.event")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.status")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.attempts")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.lastStatusCode")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.lastError")}</Table.Th>
                <Table.Th>{t("webhooks.deliveries.nextAttempt")}</Table.Th>
                {canWrite ? <Table.Th /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.rows.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatDate(d.created_at)}</Table.Td>
                  <Table.Td>{d.event}</Table.Td>
                  <Table.Td>
                    <DeliveryStatus status={d.status} />
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.last_status_code ?? "—"}</Table.Td>
                  <Table.Td>{d.last_error ?? "—"}</Table.Td>
                  <Table.Td>{d.next_attempt_at ? formatDate(d.next_attempt_at) : "—"}</Table.Td>
                  {canWrite ? (
                    <Table.Td>
                      <Form method="post" action={here}>
                        <input type="hidden" name="delivery" value={d.id} />
                        <Button type="submit" name="intent" value="resend" size="xs" variant="default">
                          {t("webhooks.deliveries.resend")}
                        </Button>
                      </Form>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {pages > 1 ? (
        <Group>
          {filter.page > 1 ? (
            <Anchor component={Link} to={deliveriesPath(webhook.id, { ...filter, page: filter.page - 1 })}>
              {t("webhooks.deliveries.previous")}
            </Anchor>
          ) : null}
          <Text size="sm">{t("webhooks.deliveries.pageOf", { page: filter.page, pages })}</Text>
          {filter.page < pages ? (
            <Anchor component={Link} to={deliveriesPath(webhook.id, { ...filter, page: filter.page + 1 })}>
              {t("webhooks.deliveries.next")}
            </Anchor>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
