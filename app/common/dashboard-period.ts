import { z } from "zod";

// The dashboard's time periods (spec §9) as they appear in the URL, read the same way by the
// console's GET form and by the API.

export const PERIODS = ["all_time", "today", "yesterday", "last_7_days", "last_month", "3_months", "6_months", "last_year", "custom"] as const;
export type PeriodName = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: PeriodName = "last_month";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

export type PeriodQuery = { period: Exclude<PeriodName, "custom"> } | { period: "custom"; from: string; to: string };

/** A custom period needs two real dates, the first not after the second ('Select two dates'). */
export const periodQuerySchema = z
  .object({
    period: z.enum(PERIODS, { errorMap: () => ({ message: "errors:dashboardPeriod" }) }).default(DEFAULT_PERIOD),
    from: z.string().trim().optional(),
    to: z.string().trim().optional(),
  })
  .transform((q, ctx): PeriodQuery => {
    if (q.period !== "custom") return { period: q.period };
    if (!q.from || !q.to || !isDate(q.from) || !isDate(q.to)) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "errors:selectTwoDates" });
      return z.NEVER;
    }
    if (q.from > q.to) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "errors:datesInOrder" });
      return z.NEVER;
    }
    return { period: "custom", from: q.from, to: q.to };
  });

/** The query string of a period, for links and the API call. */
export function periodSearch(q: PeriodQuery): string {
  const params = new URLSearchParams({ period: q.period });
  if (q.period === "custom") {
    params.set("from", q.from);
    params.set("to", q.to);
  }
  return params.toString();
}
