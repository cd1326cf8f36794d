import { Card, Text, Title } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import type { Count } from "../../common/dashboard-answer";
import { useHydrated } from "../../utils/use-hydrated";
import { CountTable } from "./CountTable";

interface Props {
  testId: string;
  title: string;
  keyLabel: string;
  data: Count[];
  /** How a key reads in the table and on the axis (a state's name, a month). */
  label?: (key: string) => string;
}

const WIDTH = 440;
const HEIGHT = 260;

/**
 * A bar chart drawn as SVG on the server (readable without JavaScript; tooltips once it runs),
 * with the same numbers as a table behind "Show data" for screen readers and copying.
 */
export function ChartCard({ testId, title, keyLabel, data, label = (k) => k }: Props) {
  const { t } = useTranslation("dashboard");
  const titleId = useId();
  const hydrated = useHydrated();
  const rows = data.map((d) => ({ name: label(d.key), count: d.count }));
  return (
    <Card withBorder data-testid={testId} component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb="xs">
        {title}
      </Title>
      {/* The chart is a picture of the table below; assistive technology reads the table. */}
      <div className="dashboard-chart" aria-hidden="true">
        <BarChart width={WIDTH} height={HEIGHT} data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {/* Every tick, angled: the server cannot measure text, so the client must not drop ticks it measured, or hydration fails. */}
          <XAxis dataKey="name" interval={0} angle={-40} textAnchor="end" height={64} tick={{ fontSize: 10 }} />
          <YAxis allowDecimals={false} width={40} tick={{ fontSize: 11 }} />
          {/* Tooltips need a pointer and JavaScript: drawn once the page runs (the first render
              matches the server's), sparing the server a third of each chart's work. */}
          {hydrated ? <Tooltip cursor={{ fillOpacity: 0.15 }} formatter={(value) => [String(value), t("count")]} /> : null}
          <Bar dataKey="count" isAnimationActive={false} />
        </BarChart>
      </div>
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
