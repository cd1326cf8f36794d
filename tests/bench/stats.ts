// Latency sampling for the benchmarks: sequential requests, client-side wall time.

export interface Summary {
  label: string;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** The aim for p95 in ms, when the benchmark has one. */
  aim?: number;
  /** Server CPU per request (product processes and database backends), when measured. */
  cpuMs?: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarise(label: string, run: { samples: number[]; errors: number; cpuMs?: number }, aim?: number): Summary {
  const sorted = [...run.samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  const [p50, p95, p99, max] = [percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99), sorted.at(-1) ?? Number.NaN];
  return { label, count: sorted.length, errors: run.errors, p50, p95, p99, max, mean, aim, cpuMs: run.cpuMs };
}

/**
 * Runs `request(i)` one at a time: `warmup` unmeasured calls, then `count` measured ones.
 * A request that resolves false (wrong status, wrong body) counts as an error.
 */
export async function sample(
  count: number,
  warmup: number,
  request: (i: number) => Promise<boolean>,
  cpu: () => number = () => Number.NaN,
): Promise<{ samples: number[]; errors: number; cpuMs: number }> {
  for (let i = 0; i < warmup; i++) await request(count + i);
  const samples: number[] = [];
  let errors = 0;
  const cpuBefore = cpu();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const ok = await request(i);
    samples.push(performance.now() - started);
    if (!ok) errors++;
  }
  return { samples, errors, cpuMs: (cpu() - cpuBefore) / count };
}
