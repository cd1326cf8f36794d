import { Anchor, Stack, Text, Title } from "../utils/mantine";
import { data } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export const handle = { titleKey: "pages.success" };

// The page is the answer to a request the role may not make: 403, with the page shown all the same.
export function loader() {
  return data(null, { status: 403 });
}

/** Where a role that may not open a page lands. */
export default function Success() {
  const { t } = useTranslation();
  return (
    <Stack maw={640}>
      <Title order={2} size="h3" data-testid="no-access">
        {t("success.heading")}
      </Title>
      <Text>{t("success.body")}</Text>
      <Anchor component={Link} to="/dashboard">
        {t("success.back")}
      </Anchor>
    </Stack>
  );
}
