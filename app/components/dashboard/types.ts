// The API's dashboard answer, as the console reads it (server/dashboard/dashboard.ts).

export interface Count {
  key: string;
  count: number;
}

export interface Ranked {
  id: string;
  name: string;
  count: number;
}

export interface DashboardData {
  period: { name: string; from: number | null; to: number; time_zone: string };
  documents: { received: number; fetched: number; stored: number; failed: number; sealed: number };
  notifications?: { total: number; by_state: Count[]; by_hour: Count[]; by_month: Count[] };
  time_saved?: { notices: number; minutes_per_notice: number; minutes: number };
  top_clients?: Ranked[];
  top_matters?: Ranked[];
  top_timekeepers?: Ranked[];
}
