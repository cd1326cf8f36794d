import { useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** A page title that depends on the data: a catalogue key and its values, set by the loader. */
export interface PageTitle {
  key: string;
  values?: Record<string, string>;
}

type TitleHandle = { titleKey?: string | ((data: unknown) => string | undefined) };

/**
 * The title of the deepest route that names one: its loader's `pageTitle`, or its
 * `handle.titleKey` (a catalogue key, or a function of the loader data giving one).
 */
export function usePageTitle(): string | null {
  const { t } = useTranslation();
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const fromLoader = (match.data as { pageTitle?: PageTitle } | null | undefined)?.pageTitle;
    if (fromLoader?.key) return t(fromLoader.key, fromLoader.values ?? {});
    const titleKey = (match.handle as TitleHandle | undefined)?.titleKey;
    const key = typeof titleKey === "function" ? titleKey(match.data) : titleKey;
    if (key) return t(key);
  }
  return null;
}
