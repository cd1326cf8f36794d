import { useMantineTheme } from "./mantine";

/** Mantine's focus-ring class for a plain element, as the theme sets it (always shown with accessible colours). */
export function useFocusClass(): string {
  return `mantine-focus-${useMantineTheme().focusRing}`;
}
