import { Anchor, Card, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Firm settings that have their own pages: linked here rather than edited twice. */
export function FirmLinks() {
  const { t } = useTranslation("firm");
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("elsewhere.title")}
      </Title>
      <Stack gap={4}>
        <Text size="sm">
          <Anchor component={Link} to="/hierarchy">
            {t("elsewhere.hierarchy")}
          </Anchor>
          {" — "}
          {t("elsewhere.hierarchyHelp")}
        </Text>
        <Text size="sm">
          <Anchor component={Link} to="/ethical-walls">
            {t("elsewhere.walls")}
          </Anchor>
          {" — "}
          {t("elsewhere.wallsHelp")}
        </Text>
      </Stack>
    </Card>
  );
}
