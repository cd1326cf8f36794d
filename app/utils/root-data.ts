import { useRouteLoaderData } from "@remix-run/react";
import type { RootLoader } from "../root";

/** The root loader's data (theme, toasts, branding) from any route. */
export function useRootData() {
  return useRouteLoaderData<RootLoader>("root");
}
