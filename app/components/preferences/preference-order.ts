// What the order panel and its server side share: a row, and how a form names a change of order.

export interface OrderedPreference {
  id: string;
  order: number;
  name: string;
  enabled: boolean;
}

/** A drag sends the new order itself; a move button names one preference ("up:<id>", "down:<id>"). */
export const REORDER_INTENT = "reorder";
export const isOrderIntent = (intent: string) => intent === REORDER_INTENT || intent.startsWith("up:") || intent.startsWith("down:");
