import { Anchor, Badge, Box, Code, Table, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DictionaryRow } from "../../common/dictionary";
import { entryHref } from "./dictionary-url";

const COLUMNS = ["key", "namespace", "defaultText", "text", "overridden"] as const;

/** The dictionary's rows: each key links to its entry page. */
export function DictionaryTable({ rows }: { rows: DictionaryRow[] }) {
  const { t } = useTranslation();
  return (
    <Box style={{ overflowX: "auto" }}>
      <Table striped highlightOnHover withTableBorder data-testid="dictionary-table">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c} data-field={c}>
                {t(`dictionary.columns.${c}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text size="sm" c="dimmed">
                  {t("dictionary.empty")}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((row) => (
              <Table.Tr key={`${row.namespace}:${row.key}`} data-entry={`${row.namespace}:${row.key}`}>
                <Table.Td>
                  <Anchor component={Link} to={entryHref(row.namespace, row.key)} aria-label={t("dictionary.edit", { entry: `${row.namespace}:${row.key}` })}>
                    <Code>{row.key}</Code>
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.namespace}</Table.Td>
                <Table.Td>{row.defaultText}</Table.Td>
                <Table.Td>{row.text}</Table.Td>
                <Table.Td>
                  {row.overridden ? <Badge color="blue">{t("dictionary.changed")}</Badge> : <Text size="sm">{t("dictionary.unchanged")}</Text>}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
