/** What a connection test answers (the API's shape): each step tried, in plain words. */
export interface ConnectionReport {
  ok: boolean;
  steps: { step: string; ok: boolean; detail: string }[];
}
