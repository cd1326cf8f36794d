import { Alert, Button, Group, NativeSelect, TextInput } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PERIODS } from "../../common/dashboard-period";
import { useHydrated } from "../../utils/use-hydrated";

interface Props {
  period: string;
  from: string;
  to: string;
  error: string | null;
}

/**
 * The period as a GET form: the URL carries it (a bookmark opens on it), it works without
 * JavaScript, and with JavaScript Remix swaps the data without reloading the page.
 */
export function PeriodForm({ period, from, to, error }: Props) {
  const { t } = useTranslation("dashboard");
  const busy = useNavigation().state === "loading";
  const hydrated = useHydrated();
  return (
    <Form method="get" data-testid="period-form" data-hydrated={hydrated || undefined}>
      <Group align="flex-end" wrap="wrap">
        <NativeSelect
          name="period"
          label={t("period.label")}
          defaultValue={period}
          data={PERIODS.map((p) => ({ value: p, label: t(`period.options.${p}`) }))}
        />
        <TextInput type="date" name="from" label={t("period.from")} defaultValue={from} />
        <TextInput type="date" name="to" label={t("period.to")} defaultValue={to} />
        <Button type="submit" loading={busy}>
          {t("period.show")}
        </Button>
      </Group>
      {error ? (
        <Alert color="red" mt="sm" role="alert" data-testid="period-error">
          {t(error)}
        </Alert>
      ) : null}
    </Form>
  );
}
