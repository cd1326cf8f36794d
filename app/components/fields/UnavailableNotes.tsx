import { Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { type FieldDef, fieldLabelKey } from "../../common/resources/types";

/** In place of a picker whose entity has no API yet: a sentence saying there is nothing to pick. */
export function UnavailableNotes({ resourceKey, fields }: { resourceKey: string; fields: FieldDef[] }) {
  const { t } = useTranslation();
  return fields.map((field) => (
    <Text key={field.name} size="sm" c="dimmed" data-testid={`unavailable-${field.name}`}>
      <b>{t(fieldLabelKey(resourceKey, field.name))}:</b> {t([`wizard:unavailable.${field.reference}`, "wizard:unavailable.default"])}
    </Text>
  ));
}
