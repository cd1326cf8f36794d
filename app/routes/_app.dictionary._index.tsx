import { Button, Card, Group, Stack, Text } from "../utils/mantine";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "../components/Pager";
import { DictionaryFilters } from "../components/dictionary/DictionaryFilters";
import { DictionaryImportForm } from "../components/dictionary/DictionaryImportForm";
import { DictionaryTable } from "../components/dictionary/DictionaryTable";
import { dictionaryListData } from "../components/dictionary/dictionary.server";

// /dictionary: every label and message, searchable, with the firm's words where it set them.

export const handle = { titleKey: "pages.dictionary" };

export function loader({ request }: LoaderFunctionArgs) {
  return dictionaryListData(request);
}

export default function Dictionary() {
  const { rows, total, page, size, filter, namespaces, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t("dictionary.intro")}
      </Text>
      <Group justify="space-between" align="end">
        <DictionaryFilters filter={filter} namespaces={namespaces} />
        <Button component="a" href="/dictionary/export" variant="default" download>
          {t("dictionary.export")}
        </Button>
      </Group>
      <DictionaryTable rows={rows} />
      <Pager page={page} size={size} total={total} />
      {canEdit ? (
        <Card withBorder>
          <DictionaryImportForm />
        </Card>
      ) : null}
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
