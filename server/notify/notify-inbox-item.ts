import type { ServerContext } from "../context";

/** Tells the people who want to hear about a processed notice, as their groups say. */
export async function notifyInboxItem(_ctx: ServerContext, _itemId: string, _attempt: number): Promise<void> {
  throw new Error("TODO(notify): notification is being written");
}
