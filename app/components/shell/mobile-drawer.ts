import { useLocation } from "@remix-run/react";
import { useState } from "react";

// Below the spec's mobile breakpoint (sm) the drawer covers the page, so it is not the saved
// drawer preference: it starts closed on every page and opens for that page only. Without
// JavaScript the open drawer is a URL (`?drawer=open`) that no drawer link carries on.

export const MOBILE_DRAWER_PARAM = "drawer";

/** The page's own address with the small-screen drawer open or closed. */
export function mobileDrawerHref(pathname: string, search: string, open: boolean): string {
  const params = new URLSearchParams(search);
  if (open) params.set(MOBILE_DRAWER_PARAM, "open");
  else params.delete(MOBILE_DRAWER_PARAM);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Whether the small-screen drawer is open, and a toggle that lasts until the next navigation. */
export function useMobileDrawer(): { opened: boolean; toggle: () => void; href: string } {
  const location = useLocation();
  const fromUrl = new URLSearchParams(location.search).get(MOBILE_DRAWER_PARAM) === "open";
  // Keyed by the location: any navigation leaves the toggled state behind.
  const [toggled, setToggled] = useState<{ key: string; opened: boolean } | null>(null);
  const opened = toggled?.key === location.key ? toggled.opened : fromUrl;
  return {
    opened,
    toggle: () => setToggled({ key: location.key, opened: !opened }),
    href: mobileDrawerHref(location.pathname, location.search, !opened),
  };
}
