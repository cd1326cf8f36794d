import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "./catalogue.server";
import { i18nConfig } from "./i18n";
import { addOutcome, batches, newTally, summaryToast } from "./inbox-bulk";

const i18n = i18next.createInstance();
void i18n.init({ ...i18nConfig, lng: "en", resources, initImmediate: false });
const t = i18n.t.bind(i18n);

describe("the summary of a bulk action", () => {
  it("adds batches up and groups the reasons, most frequent first", () => {
    let tally = newTally(5);
    tally = addOutcome(tally, { done: ["a"], skipped: [{ id: "b", reason: "status Succeeded" }] });
    tally = addOutcome(tally, {
      done: ["c"],
      skipped: [
        { id: "d", reason: "older than 30 days" },
        { id: "e", reason: "older than 30 days" },
      ],
    });
    expect(tally).toMatchObject({ total: 5, processed: 5, done: 2 });
    expect(summaryToast(t, "retry", tally)).toEqual({
      type: "warning",
      text: "Retry: 2 done, 3 skipped (older than 30 days: 2; status Succeeded: 1).",
    });
  });

  it("is a success when nothing was left, and names the cap when the filter matched more", () => {
    expect(summaryToast(t, "archive", addOutcome(newTally(2), { done: ["a", "b"], skipped: [] }))).toEqual({
      type: "success",
      text: "Archive: 2 done, 0 skipped.",
    });
    const capped = newTally(2, { ids: ["a", "b"], total: 7000, max: 2 });
    expect(summaryToast(t, "manual", addOutcome(capped, { done: ["a", "b"], skipped: [] })).text).toBe(
      "Process manually: 2 done, 0 skipped. Only the first 2 of 7,000 matching items were included.",
    );
  });

  it("cuts ids into requests", () => {
    expect(batches(["a", "b", "c"], 2)).toEqual([["a", "b"], ["c"]]);
    expect(batches([], 50)).toEqual([]);
  });
});
