import { Card, Text, Title } from "../../utils/mantine";
import { useElementSize } from "@mantine/hooks";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Tooltip } from "recharts";
import type { Count } from "../../common/dashboard-answer";
import { useHydrated } from "../../utils/use-hydrated";
import { chartSvg } from "./chart-svg.server";
import { CHART_WIDTH, CountBarChart } from "./CountBarChart";
import { CountTable } from "./CountTable";

interface Props {
  testId: string;
  title: string;
  keyLabel: string;
  data: Count[];
  /** How a key reads in the table and on the axis (a state's name, a month). */
  label?: (key: string) => string;
}

/**
 * A bar chart drawn as SVG on the server (readable without JavaScript; tooltips once it runs),
 * with the same numbers as a table behind "Show data" for screen readers and copying.
 */
export function ChartCard({ testId, title, keyLabel, data, label = (k) => k }: Props) {
  const { t } = useTranslation("dashboard");
  const titleId = useId();
  const hydrated = useHydrated();
  // The live chart is drawn at the card's width where that is narrower (a phone), so it is whole
  // and its tooltips stay on the bars; the server's drawing is scaled down by CSS instead.
  const { ref, width } = useElementSize();
  const chartWidth = width > 0 ? Math.min(CHART_WIDTH, Math.floor(width)) : CHART_WIDTH;
  const rows = data.map((d) => ({ name: label(d.key), count: d.count }));
  return (
    <Card withBorder data-testid={testId} component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb="xs">
        {title}
      </Title>
      {/* The chart is a picture of the table below; assistive technology reads the table. */}
      {hydrated ? (
        <div key="live" ref={ref} className="dashboard-chart" aria-hidden="true">
          <CountBarChart
            rows={rows}
            width={chartWidth}
            tooltip={<Tooltip cursor={{ fillOpacity: 0.15 }} formatter={(value) => [String(value), t("count")]} />}
          />
        </div>
      ) : (
        // The server sends its drawing as markup (chart-svg.server.tsx); hydration keeps it as it
        // is (React leaves inner HTML alone there), and the browser draws the live chart after.
        <div
          key="drawn"
          className="dashboard-chart"
          aria-hidden="true"
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: typeof document === "undefined" ? chartSvg(rows) : "" }}
        />
      )}
      <details className="dashboard-data">
        <summary>
          <Text span size="sm">
            {t("showData")}
          </Text>
        </summary>
        <CountTable bordered testId={`${testId}-table`} headers={[keyLabel, t("count")]} rows={rows.map((r) => ({ key: r.name, cells: [r.name, r.count] }))} />
      </details>
    </Card>
  );
}
