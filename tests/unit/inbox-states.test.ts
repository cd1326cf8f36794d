import { describe, expect, it } from "vitest";
import { ACTION_REQUIRED, DISPOSITIONS, INBOX_STATUSES } from "../../app/common/resources/inbox";
import { documentOnlyStore } from "../../app/utils/load-context";
import { FINAL_STATUSES, OPEN_STATUSES } from "../../server/pipeline/item-state";
import { consoleLoadContext } from "../../server/console-host/load-context";

// An inbox item's states are declared once (app/common/resources/inbox.ts): the pipeline's final
// and open states split exactly those, and the card's type takes them from there.
describe("inbox states declared once", () => {
  it("splits the declared statuses into final and open ones, each status in exactly one", () => {
    expect([...FINAL_STATUSES, ...OPEN_STATUSES].sort()).toEqual([...INBOX_STATUSES].sort());
    expect(FINAL_STATUSES.filter((s) => OPEN_STATUSES.includes(s))).toEqual([]);
  });

  it("declares each list without repeats", () => {
    for (const list of [INBOX_STATUSES, DISPOSITIONS, ACTION_REQUIRED]) expect(new Set(list).size).toBe(list.length);
  });
});

// The console server builds the load context the console declares and reads (decision 074).
describe("the console's load context", () => {
  it("gives a document request a store for what its loaders keep out of the loader data", () => {
    const context = consoleLoadContext("/cases", "nonce-1");
    expect(context.cspNonce).toBe("nonce-1");
    expect(documentOnlyStore(context)).toBeInstanceOf(Map);
    expect(documentOnlyStore(context)).toBe(documentOnlyStore(context));
  });

  it("gives a data request (single fetch's .data) none, nor a loader called without the console server", () => {
    expect(documentOnlyStore(consoleLoadContext("/cases.data", "nonce-2"))).toBeNull();
    expect(documentOnlyStore({})).toBeNull();
    expect(documentOnlyStore(undefined)).toBeNull();
  });
});
