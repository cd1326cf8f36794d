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

/** The dashboard form's fields as the page reads them back. */
export interface PeriodForm {
  period: string;
  from: string;
  to: string;
}

/**
 * What the dashboard's form asked for. Dates typed in choose the custom period, whatever the
 * list says (a person fills in dates and leaves the list as it was); only leaving a custom period
 * the page showed (`shown`) by the list drops the dates it still carries.
 */
export function formPeriod(params: URLSearchParams): PeriodForm {
  const period = params.get("period") || DEFAULT_PERIOD;
  const from = params.get("from")?.trim() ?? "";
  const to = params.get("to")?.trim() ?? "";
  if (period === "custom" || (!from && !to)) return { period, from, to };
  if (params.get("shown") === "custom") return { period, from: "", to: "" };
  return { period: "custom", from, to };
}
