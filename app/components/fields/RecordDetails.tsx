import { Table } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { type ResourceDef, fieldLabelKey } from "../../common/resources/types";
import { FieldValue, type ReferenceTitles } from "./FieldValue";

/** Every field of the record the API let this user see, labelled from the catalogue. */
export function RecordDetails({ def, record, titles }: { def: ResourceDef; record: Record<string, unknown>; titles: ReferenceTitles }) {
  const { t } = useTranslation();
  const visible = def.fields.filter((f) => f.name in record && !f.internal);
  return (
    <Table variant="vertical" layout="fixed" withTableBorder data-testid="record-details">
      <Table.Tbody>
        {visible.map((field) => (
          <Table.Tr key={field.name} data-field={field.name}>
            <Table.Th w={220}>{t(fieldLabelKey(def.key, field.name))}</Table.Th>
            <Table.Td>
              <FieldValue resourceKey={def.key} field={field} value={record[field.name]} titles={titles} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
