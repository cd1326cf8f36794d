import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { ImportView } from "./import.server";

const POLL_MS = 1000;

/**
 * The freshest view of the page's job: while it runs, the page's own loader is fetched again
 * every second (a fetcher load runs only this route's loader) until the job has finished.
 */
export function useImportView(loaded: ImportView, url: string): ImportView {
  const fetcher = useFetcher<{ view: ImportView }>();
  const polled = fetcher.data?.view;
  const current = loaded.job?.status === "running" && polled?.job?.id === loaded.job.id ? polled : loaded;
  const running = current.job?.status === "running";
  const idle = fetcher.state === "idle";
  const { load } = fetcher;
  useEffect(() => {
    if (!running || !idle) return;
    const timer = setTimeout(() => load(url), POLL_MS);
    return () => clearTimeout(timer);
  }, [running, idle, load, url, current]);
  return current;
}
