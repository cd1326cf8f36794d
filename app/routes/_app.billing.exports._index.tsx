import { Alert, Anchor, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { exportsPageAction, exportsPageData } from "../components/billing/exports-page.server";
import { EXPORTS_PATH } from "../components/billing/paths";

// /billing/exports: the cost load and timeslips downloads and the settings they need.

export const handle = { titleKey: "pages.billing" };

export function loader({ request }: LoaderFunctionArgs) {
  return exportsPageData(request);
}

export function action({ request }: ActionFunctionArgs) {
  return exportsPageAction(request);
}

function PeriodFields({
  from,
  to,
  clients,
  matters,
}: {
  from: string;
  to: string;
  clients: { value: string; label: string }[];
  matters: { value: string; label: string }[];
}) {
  const { t } = useTranslation("resources");
  return (
    <Group align="end">
      <TextInput type="date" name="from" label={t("billing.exports.from")} defaultValue={from} required />
      <TextInput type="date" name="to" label={t("billing.exports.to")} defaultValue={to} required />
      <NativeSelect name="client_id" label={t("billing.exports.client")} data={[{ value: "", label: t("billing.exports.all") }, ...clients]} />
      <NativeSelect name="matter_id" label={t("billing.exports.matter")} data={[{ value: "", label: t("billing.exports.all") }, ...matters]} />
    </Group>
  );
}

export default function BillingExportsPage() {
  const { settings, canChange, clients, matters, period } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["resources", "errors"]);
  const minutes = Object.entries(settings.review_minutes)
    .map(([title, m]) => `${title}=${m}`)
    .join("\n");

  return (
    <Stack maw={1000}>
      <Anchor component={Link} to="/billing" size="sm">
        {t("billing.title")}
      </Anchor>
      <Title order={2}>{t("billing.exports.title")}</Title>

      <Card withBorder>
        <Title order={3} size="h4">
          {t("billing.exports.costsTitle")}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t("billing.exports.costsHelp")}
        </Text>
        <Form method="post" action={`${EXPORTS_PATH}/costs`} reloadDocument>
          <Stack>
            <PeriodFields from={period.from} to={period.to} clients={clients} matters={matters} />
            <Group align="end">
              <NativeSelect
                name="format"
                label={t("billing.exports.format")}
                data={[
                  { value: "ledes", label: "LEDES 1998B" },
                  { value: "csv", label: "CSV" },
                ]}
              />
              <Button type="submit">{t("billing.exports.downloadCosts")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>

      <Card withBorder>
        <Title order={3} size="h4">
          {t("billing.exports.timeTitle")}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t("billing.exports.timeHelp")}
        </Text>
        <Form method="post" action={`${EXPORTS_PATH}/time`} reloadDocument>
          <Stack>
            <PeriodFields from={period.from} to={period.to} clients={clients} matters={matters} />
            <Group align="end">
              <NativeSelect
                name="format"
                label={t("billing.exports.format")}
                data={[
                  { value: "ledes", label: "LEDES 1998B" },
                  { value: "timeslips", label: "Sage Timeslips (CSV)" },
                ]}
              />
              <Button type="submit">{t("billing.exports.downloadTime")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>

      <Card withBorder>
        <Title order={3} size="h4">
          {t("billing.exports.settingsTitle")}
        </Title>
        {settings.cost_code ? null : (
          <Alert color="yellow" my="sm" data-testid="cost-code-required">
            {t("errors:costCodeRequired")}
          </Alert>
        )}
        <Form method="post" action={EXPORTS_PATH}>
          <Stack>
            <TextInput
              name="cost_code"
              label={t("billing.exports.costCode")}
              description={t("billing.exports.costCodeHelp")}
              defaultValue={settings.cost_code ?? ""}
              maxLength={20}
              error={settings.cost_code ? undefined : t("errors:costCodeRequired")}
              disabled={!canChange}
            />
            <TextInput name="law_firm_id" label={t("billing.exports.lawFirmId")} defaultValue={settings.law_firm_id} maxLength={20} disabled={!canChange} />
            <Textarea
              name="review_minutes"
              label={t("billing.exports.reviewMinutes")}
              description={t("billing.exports.reviewMinutesHelp")}
              defaultValue={minutes}
              autosize
              minRows={2}
              disabled={!canChange}
            />
            {canChange ? (
              <Group>
                <Button type="submit">{t("billing.exports.save")}</Button>
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
