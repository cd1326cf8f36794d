import { Anchor, Card, Code, List, Stack, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { Inline, Release } from "./changelog.server";

function Line({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((part, i) => {
        switch (part.kind) {
          case "code":
            return <Code key={i}>{part.text}</Code>;
          case "strong":
            return <strong key={i}>{part.text}</strong>;
          case "em":
            return <em key={i}>{part.text}</em>;
          case "link":
            return (
              <Anchor key={i} href={part.href} rel="noreferrer" target="_blank">
                {part.text}
              </Anchor>
            );
          default:
            return <span key={i}>{part.text}</span>;
        }
      })}
    </>
  );
}

/** The product's releases, newest first, each with its sections (Added, Changed, Fixed, ...). */
export function ReleaseNotes({ releases }: { releases: Release[] }) {
  const { t } = useTranslation();
  if (releases.length === 0) return <Text>{t("releaseNotes.none")}</Text>;
  return (
    <Stack data-testid="release-notes">
      <Text c="dimmed" size="sm">
        {t("releaseNotes.intro")}
      </Text>
      {releases.map((release) => (
        <Card withBorder key={release.version} data-testid="release">
          <Title order={2} size="h4">
            {release.version === "Unreleased" ? t("releaseNotes.unreleased") : t("releaseNotes.version", { version: release.version })}
            {release.date ? (
              <Text component="span" c="dimmed" ml="sm">
                {release.date}
              </Text>
            ) : null}
          </Title>
          {release.sections.map((section) => (
            <Stack gap={4} mt="sm" key={section.heading}>
              <Title order={3} size="h6">
                {section.heading}
              </Title>
              <List size="sm" spacing={4}>
                {section.items.map((item, i) => (
                  <List.Item key={i}>
                    <Line parts={item} />
                  </List.Item>
                ))}
              </List>
            </Stack>
          ))}
        </Card>
      ))}
    </Stack>
  );
}
