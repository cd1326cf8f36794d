import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from "recharts";

export interface ChartRow {
  name: string;
  count: number;
}

export const CHART_WIDTH = 440;
export const CHART_HEIGHT = 260;

/** One of the dashboard's bar charts: the same drawing on the server (as SVG markup) and in the browser. */
export function CountBarChart({ rows, tooltip = null, width = CHART_WIDTH }: { rows: ChartRow[]; tooltip?: ReactNode; width?: number }) {
  return (
    <BarChart width={width} height={CHART_HEIGHT} data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      {/* Every tick, angled: the server cannot measure text, so the browser must not drop ticks it measured. */}
      <XAxis dataKey="name" interval={0} angle={-40} textAnchor="end" height={64} tick={{ fontSize: 10 }} />
      <YAxis allowDecimals={false} width={40} tick={{ fontSize: 11 }} />
      {tooltip}
      <Bar dataKey="count" isAnimationActive={false} />
    </BarChart>
  );
}
