import { Badge, Card, Group, Stack, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { ENTITLED_FEATURES } from "../../common/entitled-features";

/** What the firm bought, shown and never edited here: ECFX sets it with the subscription (decision 048). */
export function EntitledFeaturesCard({ entitled }: { entitled: readonly string[] }) {
  const { t } = useTranslation("firm");
  return (
    <Card withBorder data-testid="entitled-features">
      <Title order={2} size="h4" mb="xs">
        {t("features.title")}
      </Title>
      <Text size="sm" mb="sm">
        {t("features.intro")}
      </Text>
      <Stack gap={6}>
        {ENTITLED_FEATURES.map((feature) => {
          const on = entitled.includes(feature);
          return (
            <Group key={feature} gap="sm" data-testid={`feature-${feature}`}>
              <Text size="sm" miw={240}>
                {t(`features.names.${feature}`)}
              </Text>
              <Badge color={on ? "green" : "gray"} variant="light">
                {t(on ? "features.included" : "features.notIncluded")}
              </Badge>
            </Group>
          );
        })}
      </Stack>
    </Card>
  );
}
