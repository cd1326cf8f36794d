// The dictionary page's state lives in its URL (?q=&namespace=&show=&page=&size=), so a search
// is a link and the form works without JavaScript.

export const SHOW_CHOICES = ["all", "overridden", "default"] as const;
export type DictionaryShow = (typeof SHOW_CHOICES)[number];

export interface DictionaryFilter {
  q: string;
  namespace: string;
  show: DictionaryShow;
}

export function dictionaryFilterOf(params: URLSearchParams): DictionaryFilter {
  const show = params.get("show");
  return {
    q: (params.get("q") ?? "").trim(),
    namespace: params.get("namespace") ?? "",
    show: (SHOW_CHOICES as readonly string[]).includes(show ?? "") ? (show as DictionaryShow) : "all",
  };
}

/** The page of one entry. */
export const entryHref = (namespace: string, key: string) => `/dictionary/edit?${new URLSearchParams({ namespace, key })}`;
