import { AsyncLocalStorage } from "node:async_hooks";

// A job reads its firm's record, settings and webhooks once, however many of its steps ask for
// them. What is read is kept for that job only and dropped when it ends: the next job reads
// again, so a change of walls or settings holds from the next job on (decision 120).

const reads = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/**
 * Runs one job: reads made through `readOncePerJob` inside it are made once. `read` holds what
 * was already read for this job by key (its claim's statement read some on PostgreSQL).
 */
export function withJobReads<T>(work: () => Promise<T>, read: ReadonlyMap<string, unknown> = new Map()): Promise<T> {
  return reads.run(new Map([...read].map(([key, value]) => [key, Promise.resolve(value)])), work);
}

/** Whether a job is running here (outside one every read is made afresh). */
export function inJob(): boolean {
  return reads.getStore() !== undefined;
}

/** What `read` answers, read once in the running job under `key`; read afresh outside a job. */
export function readOncePerJob<T>(key: string, read: () => Promise<T>): Promise<T> {
  const kept = reads.getStore();
  if (!kept) return read();
  const hit = kept.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const answer = read();
  // A failed read is not kept: a step that catches it and asks again reads again.
  answer.catch(() => kept.get(key) === answer && kept.delete(key));
  kept.set(key, answer);
  return answer;
}
