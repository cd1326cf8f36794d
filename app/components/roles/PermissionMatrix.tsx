import { Table, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { ACCESS_LEVELS, type AccessLevel } from "../../common/access";
import { fieldPermissionLabelKeys, resourceTypeLabelKey } from "../../common/resources/labels";
import { type MatrixRow, accessInput, areaWasInput, fieldInput } from "./role-values";

// Every resource type of the role message as a row of three radio buttons, and its fields' own
// levels in a disclosure under it: plain inputs and <details>, so it works without JavaScript.

const COLUMNS: AccessLevel[] = [...ACCESS_LEVELS].reverse();

function LevelCells({ name, label, level, disabled }: { name: string; label: string; level: AccessLevel; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {COLUMNS.map((option) => (
        <Table.Td key={option} ta="center">
          <input
            type="radio"
            name={name}
            value={option}
            defaultChecked={option === level}
            disabled={disabled}
            aria-label={t("roles:levelOf", { what: label, level: t(`access.${option}`) })}
          />
        </Table.Td>
      ))}
    </>
  );
}

function LevelHeads({ first }: { first: string }) {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>{first}</Table.Th>
        {COLUMNS.map((level) => (
          <Table.Th key={level} ta="center">
            {t(`access.${level}`)}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

export function PermissionMatrix({ rows, disabled }: { rows: MatrixRow[]; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" c="dimmed" mb="xs">
        {t("roles:fieldLevelsRule")}
      </Text>
      <Table striped withTableBorder data-testid="permission-matrix">
        <LevelHeads first={t("roles:area")} />
        <Table.Tbody>
          {rows.map((row) => {
            const area = t(resourceTypeLabelKey(row.type));
            return [
              <Table.Tr key={row.type} data-resource={row.type}>
                <Table.Th scope="row" fw={500}>
                  {area}
                  {disabled ? null : <input type="hidden" name={areaWasInput(row.type)} value={row.access} />}
                </Table.Th>
                <LevelCells name={accessInput(row.type)} label={area} level={row.access} disabled={disabled} />
              </Table.Tr>,
              row.fields.length ? (
                <Table.Tr key={`${row.type}-fields`}>
                  <Table.Td colSpan={COLUMNS.length + 1} py={4}>
                    <details data-fields-of={row.type}>
                      <summary>{t("roles:fieldsOf", { area })}</summary>
                      <Table withTableBorder mt="xs" mb="xs">
                        <LevelHeads first={t("roles:field")} />
                        <Table.Tbody>
                          {row.fields.map((field) => {
                            const label = t(fieldPermissionLabelKeys(row.type, field.name));
                            return (
                              <Table.Tr key={field.name}>
                                <Table.Th scope="row" fw={400}>
                                  {label}
                                </Table.Th>
                                <LevelCells name={fieldInput(row.type, field.name)} label={`${area}, ${label}`} level={field.access} disabled={disabled} />
                              </Table.Tr>
                            );
                          })}
                        </Table.Tbody>
                      </Table>
                    </details>
                  </Table.Td>
                </Table.Tr>
              ) : null,
            ];
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}
