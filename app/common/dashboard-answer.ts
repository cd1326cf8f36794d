import type { PeriodQuery } from "./dashboard-period";

// The dashboard's answer: what the API counts (server/dashboard) and the console draws.

export interface Count {
  key: string;
  count: number;
}

export interface Ranked {
  id: string;
  name: string;
  count: number;
}

export interface DocumentCounts {
  received: number;
  fetched: number;
  stored: number;
  failed: number;
  sealed: number;
}

export interface DashboardData {
  period: { name: PeriodQuery["period"]; from: number | null; to: number; time_zone: string };
  documents: DocumentCounts;
  notifications?: { total: number; by_state: Count[]; by_hour: Count[]; by_month: Count[] };
  time_saved?: { notices: number; minutes_per_notice: number; minutes: number };
  top_clients?: Ranked[];
  top_matters?: Ranked[];
  top_timekeepers?: Ranked[];
}
