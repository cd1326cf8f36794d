import type { ServerContext } from "../context";

/** Files a processed notice and its documents through the storage policy that applies. */
export async function storeInboxItem(_ctx: ServerContext, _itemId: string, _attempt: number): Promise<void> {
  throw new Error("TODO(storage): filing is being written");
}
