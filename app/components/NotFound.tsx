import { Anchor, Stack, Text, Title } from "../utils/mantine-document";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The page for an address with no page: what happened, and the way home (the dashboard, or sign-in). */
export function NotFound({ home }: { home: string }) {
  const { t } = useTranslation();
  return (
    <Stack maw={560} data-testid="not-found">
      <Title order={1} size="h3">
        {t("notFound.heading")}
      </Title>
      <Text>{t("notFound.body")}</Text>
      <Anchor component={Link} to={home}>
        {t(home === "/login" ? "notFound.signIn" : "notFound.home")}
      </Anchor>
    </Stack>
  );
}
