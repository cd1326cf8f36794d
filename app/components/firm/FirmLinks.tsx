import { Anchor, Card, Stack, Text, Title } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

const PAGES = [
  { to: "/hierarchy", key: "hierarchy" },
  { to: "/ethical-walls", key: "walls" },
  { to: "/special-handling", key: "specialHandling" },
  { to: "/single-sign-on", key: "singleSignOn" },
] as const;

/** Firm settings that have their own pages: linked here rather than edited twice. */
export function FirmLinks() {
  const { t } = useTranslation("firm");
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("elsewhere.title")}
      </Title>
      <Stack gap={4}>
        {PAGES.map((page) => (
          <Text size="sm" key={page.to}>
            <Anchor component={Link} to={page.to}>
              {t(`elsewhere.${page.key}`)}
            </Anchor>
            {" — "}
            {t(`elsewhere.${page.key}Help`)}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
