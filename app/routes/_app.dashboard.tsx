import { SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { type LinksFunction, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ChartCard } from "../components/dashboard/ChartCard";
import dashboardStyles from "../components/dashboard/dashboard.css";
import { PeriodForm } from "../components/dashboard/PeriodForm";
import { DocumentStats, TimeSaved } from "../components/dashboard/StatCards";
import { TopList } from "../components/dashboard/TopList";
import type { DashboardData } from "../common/dashboard-answer";
import { requireUser } from "../utils/auth.server";
import { DEFAULT_PERIOD, periodQuerySchema, periodSearch } from "../common/dashboard-period";
import { keptResults } from "../common/kept-results";
import { useRootData } from "../utils/root-data";

export const handle = { titleKey: "pages.dashboard" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];

const calendarDays = keptResults<Intl.DateTimeFormat>(64);

/** A date of the firm's calendar ("YYYY-MM-DD") at an instant. */
const localDate = (ms: number, timeZone: string) =>
  calendarDays(timeZone, () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })).format(ms);

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api, headers } = await requireUser(request, "dashboardAccess");
  const params = new URL(request.url).searchParams;
  const form = { period: params.get("period") || DEFAULT_PERIOD, from: params.get("from") ?? "", to: params.get("to") ?? "" };
  const parsed = periodQuerySchema.safeParse({ period: form.period, from: form.from || undefined, to: form.to || undefined });
  if (!parsed.success) return data({ me, form, error: parsed.error.issues[0]?.message ?? "errors:selectTwoDates", dashboard: null, shown: null }, { headers });
  const { data: dashboard } = await api.json<DashboardData>(`/api/v1/dashboard?${periodSearch(parsed.data)}`);
  const zone = dashboard.period.time_zone;
  const shown = { from: dashboard.period.from === null ? null : localDate(dashboard.period.from, zone), to: localDate(dashboard.period.to - 1, zone) };
  return data({ me, form, error: null, dashboard, shown }, { headers });
}

// Made once: a formatter costs far more to make than to use.
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const monthLabel = (key: string) => monthFormat.format(Date.parse(`${key}-01T00:00:00Z`));

export default function Dashboard() {
  const { me, form, error, dashboard, shown } = useLoaderData<typeof loader>();
  const root = useRootData();
  const { t } = useTranslation("dashboard");
  const stateLabel = (key: string) => t(`resources:inbox-items.options.status.${key}`, { defaultValue: key });
  return (
    <Stack>
      <Title order={2} size="h3">
        {t("welcome", { name: me.displayName || me.fullName })}
      </Title>
      {dashboard ? <Text>{t("intro", { firm: root?.branding?.name ?? "", zone: dashboard.period.time_zone })}</Text> : null}
      <PeriodForm period={form.period} from={form.from} to={form.to} error={error} />
      {dashboard && shown ? (
        <>
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
      ) : null}
    </Stack>
  );
}
