import { Link, type LinkProps } from "@remix-run/react";
import { useFocusClass } from "../utils/focus-class";

/**
 * A link with the look of a Mantine button, drawn by app.css (`.plain-button`): a Mantine Button
 * as a link is about 650 bytes of markup, and a list page draws several (new, import, the quick
 * filters, previous and next). Without `variant` it is filled with the primary colour.
 */
export function PlainButtonLink({ size = "sm", variant, ...props }: LinkProps & { size?: "sm" | "xs"; variant?: "subtle" | "default" }) {
  return <Link className={`plain-button ${useFocusClass()}`} data-size={size} data-variant={variant} {...props} />;
}
