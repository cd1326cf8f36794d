import { allows } from "../../app/common/access";
import { type PeriodQuery, periodSearch } from "../../app/common/dashboard-period";
import { type Caller, fieldLevel } from "../auth/caller";
import type { ServerContext } from "../context";
import type { DashboardData } from "../../app/common/dashboard-answer";
import { type BoundedCache, boundedCache } from "../../app/common/bounded-cache";
import { type CountScope, type TopKind, documentCounts, notificationCounts, topCounts } from "./aggregates";
import { periodRange } from "./period-range";

// What /dashboard shows for one caller and period: each widget the role's dashboard field levels
// allow (spec §3 Dashboard: notifications, top_matter, top_client, top_timekeeper), counted over
// what the caller's ethical walls leave them, in the firm's time zone.

export type Dashboard = DashboardData;

const TOP_FIELDS: Record<TopKind, "top_client" | "top_matter" | "top_timekeeper"> = {
  client: "top_client",
  matter: "top_matter",
  timekeeper: "top_timekeeper",
};

// Answers kept for a few seconds, in this process: a dashboard read by several people of a firm,
// or reloaded, costs one set of aggregates per period and scope; a count may be that much late.
const caches = new WeakMap<ServerContext, BoundedCache<Promise<Dashboard>>>();
function cacheOf(ctx: ServerContext): BoundedCache<Promise<Dashboard>> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = boundedCache({ max: 1000, ttlMs: ctx.config.ECFX_DASHBOARD_CACHE_SECONDS * 1000, now: () => ctx.clock.now() });
    caches.set(ctx, cache);
  }
  return cache;
}

/** `scope`: what the counts cover, from the caller's read scope (server/resources/read-scope.ts, walledMatterIds). */
export async function dashboardFor(ctx: ServerContext, caller: Caller, q: PeriodQuery, scope: CountScope): Promise<Dashboard> {
  const sees = (field: string) => allows(fieldLevel(caller, "dashboard", field), "read");
  const showNotifications = sees("notifications");
  const kinds = (Object.keys(TOP_FIELDS) as TopKind[]).filter((k) => sees(TOP_FIELDS[k]));
  const firm = await ctx.database.db
    .selectFrom("firm")
    .select(["default_time_zone", "minutes_saved_per_notice"])
    .where("id", "=", caller.firmId)
    .executeTakeFirstOrThrow();
  // Keyed by everything the answer depends on: firm, period, what the role shows, the walls and the zone.
  const key = [
    caller.firmId,
    periodSearch(q),
    showNotifications,
    kinds.join(","),
    scope.walledMatterIds.join(","),
    firm.default_time_zone,
    firm.minutes_saved_per_notice,
  ].join("|");
  return cacheOf(ctx).keep(key, async () => {
    const zone = firm.default_time_zone;
    const range = periodRange(q, ctx.clock.now(), zone);
    const [documents, notifications, tops] = await Promise.all([
      documentCounts(ctx.database, scope, range),
      showNotifications ? notificationCounts(ctx.database, scope, range, zone) : undefined,
      topCounts(ctx.database, scope, range, kinds),
    ]);
    const answer: Dashboard = { period: { name: q.period, from: range.from, to: range.to, time_zone: zone }, documents };
    if (notifications) {
      answer.notifications = { total: notifications.total, by_state: notifications.byState, by_hour: notifications.byHour, by_month: notifications.byMonth };
      const minutes = firm.minutes_saved_per_notice;
      answer.time_saved = { notices: notifications.succeeded, minutes_per_notice: minutes, minutes: notifications.succeeded * minutes };
    }
    if (kinds.includes("client")) answer.top_clients = tops.client;
    if (kinds.includes("matter")) answer.top_matters = tops.matter;
    if (kinds.includes("timekeeper")) answer.top_timekeepers = tops.timekeeper;
    return answer;
  });
}
