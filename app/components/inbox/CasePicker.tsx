import { Button, Group, NativeSelect, Stack, Text, TextInput } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * Finds a case (a GET form, so it works without JavaScript) and re-processes the notice onto the
 * chosen one (a POST).
 */
export function CasePicker({ query, options }: { query: string; options: { id: string; label: string }[] }) {
  const { t } = useTranslation("inbox");
  return (
    <Stack gap="xs" data-testid="case-picker">
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
