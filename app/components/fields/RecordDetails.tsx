import { Table, Text } from "../../utils/mantine";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { type FieldDef, type ResourceDef, fieldLabelKey } from "../../common/resources/types";
import { FieldValue, type ReferenceTitles } from "./FieldValue";

/** A value that says nothing: no value, an empty text, list or set of properties (false and 0 say something). */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function Rows({
  t,
  def,
  fields,
  record,
  titles,
}: {
  t: TFunction;
  def: ResourceDef;
  fields: FieldDef[];
  record: Record<string, unknown>;
  titles: ReferenceTitles;
}) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {fields.map((field) => (
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

/**
 * Every field of the record the API let this user see, labelled from the catalogue: those with a
 * value first, the empty ones folded away under a line that counts them (a plain <details>, so it
 * opens without JavaScript), so that what follows the record, such as a case's notices, is not
 * pushed below a column of dashes.
 */
export function RecordDetails({ def, record, titles }: { def: ResourceDef; record: Record<string, unknown>; titles: ReferenceTitles }) {
  const { t } = useTranslation();
  const visible = def.fields.filter((f) => f.name in record && !f.internal);
  const filled = visible.filter((f) => !isEmpty(record[f.name]));
  const empty = visible.filter((f) => isEmpty(record[f.name]));
  return (
    <div data-testid="record-details">
      <Rows t={t} def={def} fields={filled} record={record} titles={titles} />
      {empty.length > 0 ? (
        <details data-testid="record-empty-fields" className="record-empty-fields">
          <summary>
            <Text span size="sm" c="dimmed">
              {t("wizard:emptyFields", { count: empty.length, names: empty.map((f) => t(fieldLabelKey(def.key, f.name))).join(", ") })}
            </Text>
          </summary>
          <Rows t={t} def={def} fields={empty} record={record} titles={titles} />
        </details>
      ) : null}
    </div>
  );
}
