import { Stack, Title } from "../utils/mantine";
import { type LinksFunction, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type Counted, CountsWhenReady } from "../components/dashboard/CountsWhenReady";
import dashboardStyles from "../components/dashboard/dashboard.css";
import { PeriodForm } from "../components/dashboard/PeriodForm";
import type { DashboardData } from "../common/dashboard-answer";
import { apiJson } from "../utils/api.server";
import { failureKey } from "../utils/api-failure.server";
import { requireUser } from "../utils/auth.server";
import { type PeriodQuery, formPeriod, periodQuerySchema, periodSearch } from "../common/dashboard-period";
import { keptResults } from "../common/kept-results";
import { useRootData } from "../utils/root-data";

export const handle = { titleKey: "pages.dashboard" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];

const calendarDays = keptResults<Intl.DateTimeFormat>(64);

/** A date of the firm's calendar ("YYYY-MM-DD") at an instant. */
const localDate = (ms: number, timeZone: string) =>
  calendarDays(timeZone, () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })).format(ms);

async function counted(token: string, query: PeriodQuery): Promise<Counted> {
  try {
    const { data: dashboard } = await apiJson<DashboardData>(`/api/v1/dashboard?${periodSearch(query)}`, { token });
    const zone = dashboard.period.time_zone;
    const shown = { from: dashboard.period.from === null ? null : localDate(dashboard.period.from, zone), to: localDate(dashboard.period.to - 1, zone) };
    return { dashboard, shown };
  } catch (error) {
    return { failure: failureKey(error) };
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, auth } = await requireUser(request, "dashboardAccess");
  const params = new URL(request.url).searchParams;
  const form = formPeriod(params);
  const parsed = periodQuerySchema.safeParse({ period: form.period, from: form.from || undefined, to: form.to || undefined });
  if (!parsed.success) return data({ me, form, error: parsed.error.issues[0]?.message ?? "errors:selectTwoDates", counts: null });
  // Asked for now and drawn when they come (decision 069): the console draws the signed-in page
  // while the API counts, and the document still goes out whole (entry.server.tsx).
  return data({ me, form, error: null, counts: counted(auth.authToken, parsed.data) });
}

export default function Dashboard() {
  const { me, form, error, counts } = useLoaderData<typeof loader>();
  const root = useRootData();
  const { t } = useTranslation("dashboard");
  return (
    <Stack>
      <Title order={2} size="h3">
        {t("welcome", { name: me.displayName || me.fullName })}
      </Title>
      <PeriodForm period={form.period} from={form.from} to={form.to} error={error} />
      {counts ? <CountsWhenReady counts={counts} firmName={root?.branding?.name ?? ""} /> : null}
    </Stack>
  );
}
