import { Box, Button, Stack, Text, TextInput } from "@mantine/core";
import { Form } from "@remix-run/react";
import { IconDownload } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { defaultExportName } from "../../common/export-name";
import { useFirmTimeZone } from "../../utils/dates";
import { tableSearchParams } from "../../utils/table-url";
import { useHydrated } from "../../utils/use-hydrated";
import { HiddenInputs } from "./HiddenInputs";
import type { TableData } from "./types";

/** The export resource route of a list page. */
export const exportPath = (resourceKey: string) => `/${resourceKey}/export`;

/**
 * Asks for a file name (the entity and today's date unless changed) and downloads every row matching the table's current filters as CSV. A
 * document request, so the browser saves the file and the page stays where it is.
 */
export function ExportForm({ table }: { table: TableData }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const timeZone = useFirmTimeZone();
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const filename = new FormData(event.currentTarget).get("filename");
    if (typeof filename !== "string" || filename.trim() === "") {
      event.preventDefault();
      setError(t("table:filenameRequired"));
    } else {
      setError(undefined);
    }
  };
  return (
    <Box component="details" data-testid="export-form">
      <Box component="summary" style={{ cursor: "pointer" }}>
        <Text span size="sm" fw={600}>
          {t("table:export.button")}
        </Text>
      </Box>
      <Form
        method="get"
        action={exportPath(table.resourceKey)}
        reloadDocument
        onSubmit={onSubmit}
        noValidate={hydrated}
        data-testid="export-download"
        data-hydrated={hydrated || undefined}
      >
        <HiddenInputs params={tableSearchParams(table.state, table.spec)} omit={(key) => key === "page" || key === "size"} />
        <Stack gap="xs" mt="xs" maw={320}>
          <TextInput
            name="filename"
            label={t("table:export.filename")}
            defaultValue={defaultExportName(table.resourceKey, Date.now(), timeZone)}
            required
            maxLength={100}
            error={error}
            rightSection={<Text size="xs">.csv</Text>}
          />
          <Text size="xs" c="dimmed">
            {t("table:export.filenameHint")}
          </Text>
          <Button type="submit" size="xs" leftSection={<IconDownload size={14} aria-hidden />}>
            {t("table:export.submit")}
          </Button>
        </Stack>
      </Form>
    </Box>
  );
}
