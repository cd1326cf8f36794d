import { useDebouncedCallback } from "@mantine/hooks";
import { useEffect, useRef, useState } from "react";
import type { PickerData } from "./reference-sources";

/**
 * Search as you type against /resources/options/<key>. A plain request from the typing handler
 * rather than a Remix fetcher: a fetcher is revalidated after every form POST of the page and
 * its failure would replace the whole page with the error boundary; a failed search here only
 * says so under its picker.
 */
export function useOptionSearch(reference: string): { answer: PickerData | null; search: (q: string) => void } {
  const [answer, setAnswer] = useState<PickerData | null>(null);
  const pending = useRef<AbortController | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  const search = useDebouncedCallback(async (q: string) => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    try {
      const response = await fetch(`/resources/options/${encodeURIComponent(reference)}?q=${encodeURIComponent(q)}`, {
        signal: controller.signal,
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(`options ${response.status}`);
      setAnswer((await response.json()) as PickerData);
    } catch {
      if (!controller.signal.aborted) setAnswer({ options: [], total: 0, query: q, failed: true });
    }
  }, 250);

  return { answer, search };
}
