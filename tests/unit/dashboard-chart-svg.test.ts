import { describe, expect, it } from "vitest";
import { chartSvg } from "../../app/components/dashboard/chart-svg.server";
import { CHART_HEIGHT, CHART_WIDTH } from "../../app/components/dashboard/CountBarChart";

const rows = (counts: number[]) => counts.map((count, i) => ({ name: `Month ${i + 1}`, count }));

describe("the dashboard's charts drawn on the server", () => {
  it("draws one bar per row, every row's name on the axis, at the chart's size", () => {
    const svg = chartSvg(rows([5, 12, 3]));
    expect(svg).toMatch(new RegExp(`^<div class="recharts-wrapper".*<svg class="recharts-surface" width="${CHART_WIDTH}" height="${CHART_HEIGHT}"`));
    expect(svg.match(/<g class="recharts-layer recharts-bar-rectangle">/g)).toHaveLength(3);
    for (const name of ["Month 1", "Month 2", "Month 3"]) expect(svg).toContain(`>${name}</tspan>`);
  });

  it("draws the same counts the same way, and changed counts or names afresh", () => {
    const first = chartSvg(rows([5, 12, 3]));
    expect(chartSvg(rows([5, 12, 3]))).toBe(first);
    expect(chartSvg(rows([5, 12, 4]))).not.toBe(first);
    expect(chartSvg([...rows([5, 12]), { name: "Other", count: 3 }])).not.toBe(first);
    // The taller bar's rectangle changes with its count.
    const heights = (svg: string) => [...svg.matchAll(/<path [^>]*height="([\d.]+)"[^>]*class="recharts-rectangle"/g)].map((m) => Number(m[1]));
    expect(heights(chartSvg(rows([5, 12, 3])))).toHaveLength(3);
    expect(heights(chartSvg(rows([5, 12, 3])))).not.toEqual(heights(chartSvg(rows([12, 5, 3]))));
  });
});
