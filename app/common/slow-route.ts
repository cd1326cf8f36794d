/** One API route's calls of the last hour, as /api/v1/slow-calls answers and /slow shows them. */
export interface SlowRoute {
  method: string;
  route: string;
  count: number;
  /** Milliseconds, nearest-rank percentiles. */
  p50: number;
  p95: number;
  max: number;
}
