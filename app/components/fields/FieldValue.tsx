import { Anchor, Group, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { findResource } from "../../common/resources";
import { type FieldDef, recordPath } from "../../common/resources/types";
import { formatMoment, useFirmTimeZone } from "../../utils/dates";
import { propertiesToText } from "./form-values";
import { referenceSource } from "./reference-sources";

/** Titles of referenced entries: registry key → id → title. */
export type ReferenceTitles = Record<string, Record<string, string>>;

const EMPTY = "—";

function ReferenceLink({ reference, id, titles }: { reference: string; id: string; titles: ReferenceTitles }) {
  const title = titles[reference]?.[id] ?? id;
  const source = referenceSource(reference);
  if (!source?.hasDetailPage) return <span>{title}</span>;
  return (
    <Anchor component={Link} to={recordPath(findResource(reference) ?? { key: reference }, id)}>
      {title}
    </Anchor>
  );
}

/** A stored value as a person reads it: option labels, Yes/No, references by their titles. */
export function FieldValue({ resourceKey, field, value, titles }: { resourceKey: string; field: FieldDef; value: unknown; titles: ReferenceTitles }) {
  const { t } = useTranslation();
  const timeZone = useFirmTimeZone();
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) {
    return field.kind === "boolean" ? (
      <Text span>{t("wizard:no")}</Text>
    ) : (
      <Text span c="dimmed">
        {EMPTY}
      </Text>
    );
  }
  switch (field.kind) {
    case "boolean":
      return <Text span>{t(value ? "wizard:yes" : "wizard:no")}</Text>;
    case "select":
      return <Text span>{t(`resources:${resourceKey}.options.${field.name}.${String(value)}`, { defaultValue: String(value) })}</Text>;
    case "date":
      // A moment (milliseconds) falls on a day in the firm's time zone; a calendar date is shown as stored.
      return <Text span>{typeof value === "number" ? formatMoment(value, timeZone, "date") : String(value)}</Text>;
    case "reference":
      return <ReferenceLink reference={field.reference!} id={String(value)} titles={titles} />;
    case "references":
      return (
        <Group gap="xs">
          {(Array.isArray(value) ? value : [value]).map((id) => (
            <ReferenceLink key={String(id)} reference={field.reference!} id={String(id)} titles={titles} />
          ))}
        </Group>
      );
    case "emails":
      return <Text span>{(Array.isArray(value) ? value : [value]).join(", ")}</Text>;
    case "choices":
      return (
        <Text span>
          {(Array.isArray(value) ? value : [value])
            .map((choice) => t(`resources:${resourceKey}.options.${field.name}.${String(choice)}`, { defaultValue: String(choice) }))
            .join(", ")}
        </Text>
      );
    case "properties":
      return (
        <Text span style={{ whiteSpace: "pre-wrap" }}>
          {propertiesToText(value) || EMPTY}
        </Text>
      );
    default:
      return (
        <Text span style={{ whiteSpace: "pre-wrap" }}>
          {String(value)}
        </Text>
      );
  }
}
