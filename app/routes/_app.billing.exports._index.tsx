import { Alert, Anchor, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
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

      <ExportCard
        kind="costs"
        title={t("billing.exports.costsTitle")}
        help={t("billing.exports.costsHelp")}
        formats={[
          { value: "ledes", label: "LEDES 1998B" },
          { value: "csv", label: "CSV" },
        ]}
        download={t("billing.exports.downloadCosts")}
        fields={<PeriodFields from={period.from} to={period.to} clients={clients} matters={matters} />}
      />
      <ExportCard
        kind="time"
        title={t("billing.exports.timeTitle")}
        help={t("billing.exports.timeHelp")}
        formats={[
          { value: "ledes", label: "LEDES 1998B" },
          { value: "timeslips", label: "Sage Timeslips (CSV)" },
        ]}
        download={t("billing.exports.downloadTime")}
        fields={<PeriodFields from={period.from} to={period.to} clients={clients} matters={matters} />}
      />

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

/** One download of the page: its period and filters, its formats, posted as a plain form. */
function ExportCard(props: {
  kind: "costs" | "time";
  title: string;
  help: string;
  formats: { value: string; label: string }[];
  download: string;
  fields: ReactNode;
}) {
  const { t } = useTranslation(["resources", "errors"]);
  return (
    <Card withBorder>
      <Title order={3} size="h4">
        {props.title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {props.help}
      </Text>
      <Form method="post" action={`${EXPORTS_PATH}/${props.kind}`} reloadDocument>
        <Stack>
          {props.fields}
          <Group align="end">
            <NativeSelect name="format" label={t("billing.exports.format")} data={props.formats} />
            <Button type="submit">{props.download}</Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
