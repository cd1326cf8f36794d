import { Code, List, Table, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { findResource } from "../../common/resources";
import type { FieldDef, ResourceDef } from "../../common/resources/types";
import { fieldLabelKey } from "../../common/resources/types";
import { importFields, importHeader } from "../../common/import/format";

// The file format for one entity: the exact header row, what each column takes, and the rules.

function formatOf(t: ReturnType<typeof useTranslation>["t"], field: FieldDef): string {
  if (field.kind === "select") return t("transfer:import.formats.select", { options: (field.options ?? []).join(", ") });
  if (field.kind === "reference" || field.kind === "references") {
    return field.reference && findResource(field.reference)
      ? t(`transfer:import.formats.${field.kind}`, { resource: field.reference })
      : t("transfer:import.formats.id");
  }
  return t(`transfer:import.formats.${field.kind}`);
}

export function FormatHelp({ def }: { def: ResourceDef }) {
  const { t } = useTranslation();
  const fields = importFields(def);
  const keys = fields.filter((f) => f.name === "unique_key" || f.name === "reference_id").map((f) => t(fieldLabelKey(def.key, f.name)));
  return (
    <>
      <Title order={3} size="h5">
        {t("transfer:import.headerTitle")}
      </Title>
      <Code block data-testid="import-header" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
        {importHeader(def)}
      </Code>
      <Title order={3} size="h5">
        {t("transfer:import.columnsTitle")}
      </Title>
      <Table striped withTableBorder data-testid="import-columns">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("transfer:import.column")}</Table.Th>
            <Table.Th>{t("transfer:import.field")}</Table.Th>
            <Table.Th>{t("transfer:import.required")}</Table.Th>
            <Table.Th>{t("transfer:import.format")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={field.name}>
              <Table.Td>
                <Code>{field.name}</Code>
              </Table.Td>
              <Table.Td>{t(fieldLabelKey(def.key, field.name))}</Table.Td>
              <Table.Td>{field.required ? t("transfer:import.yes") : ""}</Table.Td>
              <Table.Td>{formatOf(t, field)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <List size="sm" spacing={4}>
        <List.Item>{t("transfer:import.rules.match", { keys: [...keys, "id"].join(` ${t("transfer:import.rules.or")} `) })}</List.Item>
        <List.Item>{t("transfer:import.rules.empty")}</List.Item>
        <List.Item>{t("transfer:import.rules.ignored")}</List.Item>
        <List.Item>{t("transfer:import.rules.quotes")}</List.Item>
      </List>
    </>
  );
}
