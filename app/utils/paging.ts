export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Page and size from the URL (?page=3&size=50), clamped to what the tables offer. */
export function pageFromUrl(url: URL, defaultSize: (typeof PAGE_SIZES)[number] = 25) {
  const page = Math.max(1, Math.floor(Number(url.searchParams.get("page")) || 1));
  const asked = Number(url.searchParams.get("size"));
  const size = (PAGE_SIZES as readonly number[]).includes(asked) ? asked : defaultSize;
  return { page, size, offset: (page - 1) * size };
}
