import { renderToStaticMarkup } from "react-dom/server";
import { keptResults } from "../../common/kept-results";
import { CHART_HEIGHT, CHART_WIDTH, type ChartRow, CountBarChart } from "./CountBarChart";

// Drawing a chart is most of the dashboard's server render, and the same counts (a closed period,
// a quiet hour) make the same SVG: it is drawn once per distinct rows and size.
const drawn = keptResults<string>(256);

/** A chart's SVG markup as the server sends it (no tooltips: they need a pointer and JavaScript). */
export const chartSvg = (rows: ChartRow[]): string =>
  drawn(`${CHART_WIDTH}x${CHART_HEIGHT}:${JSON.stringify(rows)}`, () => renderToStaticMarkup(<CountBarChart rows={rows} />));
