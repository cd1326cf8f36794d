/**
 * The order with one entry moved a place up or down, as a move button names it ("up:<entry>",
 * "down:<entry>"); unchanged when it cannot move. Lists reordered by plain forms share it.
 */
export function movedInOrder<T extends string>(order: T[], intent: string): T[] {
  const at = intent.indexOf(":");
  const direction = intent.slice(0, at);
  const entry = intent.slice(at + 1);
  const from = order.indexOf(entry as T);
  const to = direction === "up" ? from - 1 : from + 1;
  if (at < 0 || from < 0 || to < 0 || to >= order.length) return order;
  const next = [...order];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}
