import { Button, Card, Checkbox, Stack, Text, Title } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export const ANALYTICS_INTENT = "analytics";

/** The user's own opt-out of usage analytics (kept with their preferences; the API honours it). */
export function AnalyticsForm({ optOut }: { optOut: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder data-testid="analytics-form">
      <Title order={2} size="h4" mb="sm">
        {t("profile.analytics.title")}
      </Title>
      <Form method="post">
        <Stack gap="sm">
          <Text size="sm">{t("profile.analytics.explain")}</Text>
          <Checkbox name="optOut" value="on" defaultChecked={optOut} label={t("profile.analytics.optOut")} />
          <Button type="submit" name="intent" value={ANALYTICS_INTENT} variant="default">
            {t("profile.analytics.save")}
          </Button>
        </Stack>
      </Form>
    </Card>
  );
}
