import { Link, type LinkProps } from "@remix-run/react";
import { type PlainButtonLook, usePlainButtonLook } from "./table/PlainFields";

/**
 * A link with the look of a Mantine button, drawn by app.css (`.plain-button`): a Mantine Button
 * as a link is about 650 bytes of markup, and a list page draws several (new, import, the quick
 * filters, previous and next). Without `variant` it is filled with the primary colour.
 */
export function PlainButtonLink({ size, variant, ...props }: LinkProps & PlainButtonLook) {
  return <Link {...usePlainButtonLook({ size, variant })} {...props} />;
}
