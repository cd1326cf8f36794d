import { Box, Button, Group, Stack, Text } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TABLE_INTENTS } from "./intents";
import type { TableData } from "./types";

/** Visible columns as checkboxes, for pages without JavaScript (the interactive table has its own menu). */
export function ColumnsForm({ table }: { table: TableData }) {
  const { t } = useTranslation();
  return (
    <Box component="details" data-testid="columns-form">
      <Box component="summary" style={{ cursor: "pointer" }}>
        <Text span size="sm" fw={600}>
          {t("table:columns.button")}
        </Text>
      </Box>
      <Form method="post">
        <Stack gap={6} mt="xs" component="fieldset" style={{ border: 0, padding: 0 }}>
          <Text component="legend" size="sm" c="dimmed">
            {t("table:columns.legend")}
          </Text>
          {/* Plain checkboxes (app.css): this form is drawn only until the page is interactive, one per column. */}
          {table.columns.map((c) => (
            <label key={c.field} className="plain-checkbox">
              <input type="checkbox" name="visible" value={c.field} defaultChecked={c.visible} disabled={c.isTitle} />
              {t(c.labelKey)}
            </label>
          ))}
          <Group gap="xs">
            <Button type="submit" name="intent" value={TABLE_INTENTS.columns} size="xs">
              {t("table:columns.apply")}
            </Button>
            <Button type="submit" name="intent" value={TABLE_INTENTS.resetLayout} size="xs" variant="subtle">
              {t("table:columns.reset")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Box>
  );
}
