import { z } from "zod";
import type { TableColumn } from "./columns";

// A user's column layout of one table: hidden columns, order, widths. Saved per user through
// the API's preferences; unknown fields are ignored, so a registry change never breaks a table.

export interface TableLayout {
  hidden: string[];
  order: string[];
  widths: Record<string, number>;
}

export const EMPTY_LAYOUT: TableLayout = { hidden: [], order: [], widths: {} };
export const MIN_WIDTH = 60;
export const MAX_WIDTH = 1200;

const fieldName = z.string().regex(/^[a-z_]{1,64}$/);
export const tableLayoutSchema = z.object({
  hidden: z.array(fieldName).max(100).default([]),
  order: z.array(fieldName).max(100).default([]),
  widths: z.record(fieldName, z.number().int().min(MIN_WIDTH).max(MAX_WIDTH)).default({}),
});

/** The preference key a table's layout is stored under. */
export const layoutPreferenceKey = (resourceKey: string) => `table.${resourceKey}`;

export function parseLayout(value: unknown): TableLayout {
  const parsed = tableLayoutSchema.safeParse(value);
  return parsed.success ? parsed.data : EMPTY_LAYOUT;
}

export interface ArrangedColumn extends TableColumn {
  visible: boolean;
}

/** Columns in the user's order (new ones at the end), with visibility and width applied. */
export function arrangeColumns(columns: TableColumn[], layout: TableLayout): ArrangedColumn[] {
  const rank = (field: string) => {
    const at = layout.order.indexOf(field);
    return at < 0 ? layout.order.length + columns.findIndex((c) => c.field === field) : at;
  };
  return [...columns]
    .sort((a, b) => rank(a.field) - rank(b.field))
    .map((c) => ({
      ...c,
      visible: c.isTitle || !layout.hidden.includes(c.field),
      width: layout.widths[c.field] ?? c.width,
    }));
}

/** The layout after a "Columns" form: the ticked fields are shown, order and widths are kept. */
export function withVisible(layout: TableLayout, columns: TableColumn[], visible: string[]): TableLayout {
  return { ...layout, hidden: columns.filter((c) => !c.isTitle && !visible.includes(c.field)).map((c) => c.field) };
}
