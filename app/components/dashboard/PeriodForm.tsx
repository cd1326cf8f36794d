import { Alert, Button, Group, NativeSelect, TextInput } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import type { ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { PERIODS } from "../../common/dashboard-period";
import { useHydrated } from "../../utils/use-hydrated";

type Control = HTMLInputElement | HTMLSelectElement;
const controlOf = (target: Control, name: string) => target.form?.elements.namedItem(name) as Control | null;

// With JavaScript the list follows the dates as they are typed, and another period clears them;
// without it the loader reads the form the same way (formPeriod).
function chooseCustom(event: ChangeEvent<HTMLInputElement>) {
  const select = controlOf(event.currentTarget, "period");
  if (select && event.currentTarget.value) select.value = "custom";
}

function leaveCustom(event: ChangeEvent<HTMLSelectElement>) {
  if (event.currentTarget.value === "custom") return;
  for (const name of ["from", "to"]) {
    const input = controlOf(event.currentTarget, name);
    if (input) input.value = "";
  }
}

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
        {/* The period the page shows: leaving a custom one by the list drops its dates (formPeriod). */}
        <input type="hidden" name="shown" value={period} />
        <NativeSelect
          name="period"
          label={t("period.label")}
          defaultValue={period}
          data={PERIODS.map((p) => ({ value: p, label: t(`period.options.${p}`) }))}
          onChange={leaveCustom}
        />
        <TextInput type="date" name="from" label={t("period.from")} defaultValue={from} onChange={chooseCustom} />
        <TextInput type="date" name="to" label={t("period.to")} defaultValue={to} onChange={chooseCustom} />
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
