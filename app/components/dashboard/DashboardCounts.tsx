import { SimpleGrid, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { DashboardData } from "../../common/dashboard-answer";
import { ChartCard } from "./ChartCard";
import { DocumentStats, TimeSaved } from "./StatCards";
import { TopList } from "./TopList";

/** The period's first and last day as the firm's calendar reads them. */
export interface ShownPeriod {
  from: string | null;
  to: string;
}

interface Props {
  dashboard: DashboardData;
  shown: ShownPeriod;
  firmName: string;
}

// Made once: a formatter costs far more to make than to use.
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const monthLabel = (key: string) => monthFormat.format(Date.parse(`${key}-01T00:00:00Z`));

/** What the dashboard counted for the period: the charts, the documents and the top tens. */
export function DashboardCounts({ dashboard, shown, firmName }: Props) {
  const { t } = useTranslation("dashboard");
  const stateLabel = (key: string) => t(`resources:inbox-items.options.status.${key}`, { defaultValue: key });
  return (
    <>
      <Text>{t("intro", { firm: firmName, zone: dashboard.period.time_zone })}</Text>
      <Text size="sm" data-testid="period-shown">
        {shown.from ? t("period.showing", { from: shown.from, to: shown.to }) : t("period.showingAll", { to: shown.to })}
        {dashboard.notifications ? ` · ${t("total", { count: dashboard.notifications.total })}` : null}
      </Text>
      {dashboard.notifications ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <ChartCard testId="by-state" title={t("byState.title")} keyLabel={t("byState.key")} data={dashboard.notifications.by_state} label={stateLabel} />
          <ChartCard testId="by-hour" title={t("byHour.title")} keyLabel={t("byHour.key")} data={dashboard.notifications.by_hour} />
          <ChartCard testId="by-month" title={t("byMonth.title")} keyLabel={t("byMonth.key")} data={dashboard.notifications.by_month} label={monthLabel} />
          {dashboard.time_saved ? <TimeSaved saved={dashboard.time_saved} /> : null}
        </SimpleGrid>
      ) : null}
      <DocumentStats documents={dashboard.documents} />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {dashboard.top_clients ? <TopList testId="top-clients" title={t("top.clients")} rows={dashboard.top_clients} /> : null}
        {dashboard.top_matters ? <TopList testId="top-matters" title={t("top.matters")} rows={dashboard.top_matters} /> : null}
        {dashboard.top_timekeepers ? <TopList testId="top-timekeepers" title={t("top.timekeepers")} rows={dashboard.top_timekeepers} /> : null}
      </SimpleGrid>
    </>
  );
}
