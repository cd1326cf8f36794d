import type { CSSProperties, HTMLAttributes } from "react";
import { Group, getSpacing } from "../utils/mantine";
import type { MantineSpacing } from "@mantine/core";

interface RowProps extends HTMLAttributes<HTMLElement> {
  gap?: MantineSpacing | number;
  justify?: CSSProperties["justifyContent"];
  align?: CSSProperties["alignItems"];
  wrap?: "wrap" | "nowrap";
  component?: "div" | "nav";
}

const root = `${Group.classes.root} mantine-Group-root`;

/**
 * Mantine's Group as its markup alone: its class and the variables its stylesheet reads, with the
 * same defaults. The rows of controls every signed-in page draws (the header, the table's toolbar
 * and paging) use it: a Group renders through Mantine's props, styles and Box machinery on every
 * request for what is one element (the list page drew eleven).
 */
export function Row({ gap = "md", justify = "flex-start", align = "center", wrap = "wrap", component: Element = "div", style, className, ...rest }: RowProps) {
  const vars = { "--group-gap": getSpacing(gap), "--group-align": align, "--group-justify": justify, "--group-wrap": wrap } as CSSProperties;
  return <Element style={{ ...vars, ...style }} className={className ? `${className} ${root}` : root} {...rest} />;
}
