import type { ServerContext } from "../context";

/**
 * When one set of recipients gets its daily mail. Every preference group has one; so has each
 * firm, for recipients of no group (timekeepers without one, the firm's own addresses), under
 * the key `firm:<id>` with the firm's default zone and time.
 */
export interface DigestSchedule {
  key: string;
  firmId: number;
  groupId: string | null;
  timeZone: string;
  time: string;
  activityReport: boolean;
}

export const firmScheduleKey = (firmId: number): string => `firm:${firmId}`;

export async function loadSchedules(ctx: ServerContext): Promise<DigestSchedule[]> {
  const db = ctx.database.db;
  const [firms, groups] = await Promise.all([
    db.selectFrom("firm").select(["id", "default_time_zone", "default_daily_cadence_delivery_time"]).orderBy("id").execute(),
    db
      .selectFrom("timekeeper_group")
      .select(["id", "firm_id", "time_zone", "daily_cadence_delivery_time", "receive_daily_activity_report"])
      .orderBy("firm_id")
      .orderBy("id")
      .execute(),
  ]);
  const firmById = new Map(firms.map((f) => [f.id, f]));
  const schedules: DigestSchedule[] = firms.map((f) => ({
    key: firmScheduleKey(f.id),
    firmId: f.id,
    groupId: null,
    timeZone: f.default_time_zone,
    time: f.default_daily_cadence_delivery_time,
    activityReport: false,
  }));
  for (const g of groups) {
    const firm = firmById.get(g.firm_id);
    if (!firm) continue;
    schedules.push({
      key: g.id,
      firmId: g.firm_id,
      groupId: g.id,
      timeZone: g.time_zone || firm.default_time_zone,
      time: g.daily_cadence_delivery_time || firm.default_daily_cadence_delivery_time,
      activityReport: Boolean(g.receive_daily_activity_report),
    });
  }
  return schedules;
}
