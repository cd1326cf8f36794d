import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CaseMismatch } from "../../utils/inbox-actions.server";

/**
 * Finds a case (a GET form, so it works without JavaScript) and re-processes the notice onto the
 * chosen one (a POST). A case the API says is not the notice's comes back as its warning, with a
 * button that posts the same case again, confirmed.
 */
export function CasePicker({ query, options, mismatch }: { query: string; options: { id: string; label: string }[]; mismatch?: CaseMismatch }) {
  const { t } = useTranslation("inbox");
  return (
    <Stack gap="xs" data-testid="case-picker">
      {mismatch ? (
        <Alert color="yellow" role="alert" data-testid="case-mismatch">
          <Text size="sm">{mismatch.warning}</Text>
          <Form method="post">
            <input type="hidden" name="intent" value="reprocess" />
            <input type="hidden" name="case_id" value={mismatch.caseId} />
            <input type="hidden" name="confirm" value="yes" />
            <Button type="submit" color="yellow" mt="xs">
              {t("card.confirmReprocess")}
            </Button>
          </Form>
        </Alert>
      ) : null}
      <Form method="get">
        <Group align="flex-end" gap="xs">
          <TextInput name="caseQuery" label={t("card.caseSearch")} defaultValue={query} />
          <Button type="submit" variant="default">
            {t("card.search")}
          </Button>
        </Group>
      </Form>
      {options.length === 0 ? (
        query ? (
          <Text size="sm">{t("card.noCaseFound")}</Text>
        ) : null
      ) : (
        <Form method="post">
          <input type="hidden" name="intent" value="reprocess" />
          <Group align="flex-end" gap="xs">
            <NativeSelect name="case_id" label={t("card.caseToUse")} data={options.map((o) => ({ value: o.id, label: o.label }))} />
            <Button type="submit">{t("card.reprocess")}</Button>
          </Group>
        </Form>
      )}
    </Stack>
  );
}
