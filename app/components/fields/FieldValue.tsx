import { Anchor, Group, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FieldDef } from "../../shared/resources/types";
import { propertiesToText } from "./form-values";
import { referenceSource } from "./reference-sources";

/** Titles of referenced entries: registry key → id → title. */
export type ReferenceTitles = Record<string, Record<string, string>>;

const EMPTY = "—";

/** Milliseconds since the epoch as a calendar date (UTC), the same on server and browser. */
function dateOf(value: unknown): string {
  if (typeof value === "number") return new Date(value).toISOString().slice(0, 10);
  return String(value);
}

function ReferenceLink({ reference, id, titles }: { reference: string; id: string; titles: ReferenceTitles }) {
  const title = titles[reference]?.[id] ?? id;
  const source = referenceSource(reference);
  if (!source?.hasDetailPage) return <span>{title}</span>;
  return (
    <Anchor component={Link} to={`/${reference}/${encodeURIComponent(id)}`}>
      {title}
    </Anchor>
  );
}

/** A stored value as a person reads it: option labels, Yes/No, references by their titles. */
export function FieldValue({ resourceKey, field, value, titles }: { resourceKey: string; field: FieldDef; value: unknown; titles: ReferenceTitles }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) {
    return field.kind === "boolean" ? <Text span>{t("wizard:no")}</Text> : <Text span c="dimmed">{EMPTY}</Text>;
  }
  switch (field.kind) {
    case "boolean":
      return <Text span>{t(value ? "wizard:yes" : "wizard:no")}</Text>;
    case "select":
      return <Text span>{t(`resources:${resourceKey}.options.${field.name}.${String(value)}`, { defaultValue: String(value) })}</Text>;
    case "date":
      return <Text span>{dateOf(value)}</Text>;
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
    case "properties":
      return <Text span style={{ whiteSpace: "pre-wrap" }}>{propertiesToText(value) || EMPTY}</Text>;
    default:
      return <Text span style={{ whiteSpace: "pre-wrap" }}>{String(value)}</Text>;
  }
}
