import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_NAMES } from "../../app/common/event-names";

// The event log stores names; people read them in the catalogue's words.
const inbox = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../locales/en/inbox.json"), "utf8")) as { events: Record<string, string> };

describe("event names", () => {
  it("every event the product writes has a name in the catalogue", () => {
    const missing = EVENT_NAMES.filter((name) => !inbox.events[name]?.trim());
    expect(missing).toEqual([]);
  });

  it("the catalogue names no event the product does not write", () => {
    const known = new Set<string>(EVENT_NAMES);
    expect(Object.keys(inbox.events).filter((name) => !known.has(name))).toEqual([]);
  });
});
