import { Card, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { DashboardData } from "../../common/dashboard-answer";

const DOCUMENT_STATS = ["received", "fetched", "stored", "failed", "sealed"] as const;

export function DocumentStats({ documents }: { documents: DashboardData["documents"] }) {
  const { t } = useTranslation("dashboard");
  return (
    <Card withBorder component="section" data-testid="documents" aria-labelledby="documents-title">
      <Title order={3} size="h5" id="documents-title" mb="xs">
        {t("documents.title")}
      </Title>
      {/* Plain HTML laid out as Mantine's SimpleGrid and Text would (dashboard.css): ten Mantine
          components here cost more of the page's render than the five numbers are worth. */}
      <dl className="document-stats">
        {DOCUMENT_STATS.map((key) => (
          <div key={key} data-testid={`documents-${key}`}>
            <dt>{t(`documents.${key}`)}</dt>
            <dd>{documents[key]}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The time saved and the sum behind it, so nobody has to take the figure on trust. */
export function TimeSaved({ saved }: { saved: NonNullable<DashboardData["time_saved"]> }) {
  const { t } = useTranslation("dashboard");
  return (
    <Card withBorder component="section" data-testid="time-saved" aria-labelledby="time-saved-title">
      <Title order={3} size="h5" id="time-saved-title" mb="xs">
        {t("timeSaved.title")}
      </Title>
      <Text size="xl" fw={700} data-testid="time-saved-value">
        {t("timeSaved.value", { hours: Math.floor(saved.minutes / 60), minutes: saved.minutes % 60 })}
      </Text>
      <Text size="sm" data-testid="time-saved-how">
        {t("timeSaved.how", { notices: saved.notices, perNotice: saved.minutes_per_notice })}
      </Text>
    </Card>
  );
}
