import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIERARCHY_LEVELS, type HierarchyLevel } from "../../app/common/resources/storage";
import { type PolicyHolders, isHierarchyPermutation, normaliseHierarchy, pickPolicy } from "./policy-resolution";

const none: PolicyHolders = { firm: null, location: null, practice_group: null, client: null, matter: null, case: null };
const DEFAULT = [...HIERARCHY_LEVELS];

describe("pickPolicy", () => {
  it("takes the most specific level that names a policy", () => {
    expect(pickPolicy(DEFAULT, { ...none, firm: "F", client: "C", case: "K" })).toEqual({ level: "case", policyId: "K" });
    expect(pickPolicy(DEFAULT, { ...none, firm: "F", client: "C" })).toEqual({ level: "client", policyId: "C" });
    expect(pickPolicy(DEFAULT, { ...none, firm: "F", location: "L", practice_group: "P" })).toEqual({ level: "practice_group", policyId: "P" });
    expect(pickPolicy(DEFAULT, { ...none, firm: "F" })).toEqual({ level: "firm", policyId: "F" });
  });

  it("follows the firm's order, not the default one", () => {
    const clientLast: HierarchyLevel[] = ["firm", "location", "practice_group", "matter", "case", "client"];
    expect(pickPolicy(clientLast, { ...none, firm: "F", client: "C", case: "K" })).toEqual({ level: "client", policyId: "C" });
    const firmLast: HierarchyLevel[] = ["case", "matter", "client", "practice_group", "location", "firm"];
    expect(pickPolicy(firmLast, { ...none, firm: "F", case: "K" })).toEqual({ level: "firm", policyId: "F" });
    expect(pickPolicy(firmLast, { ...none, case: "K", matter: "M" })).toEqual({ level: "matter", policyId: "M" });
  });

  it("finds nothing when no level names a policy", () => {
    expect(pickPolicy(DEFAULT, none)).toBeNull();
  });

  it("always picks the holder that comes last in any order", () => {
    const order = fc.shuffledSubarray([...HIERARCHY_LEVELS], { minLength: 6, maxLength: 6 });
    const holders = fc.record(
      Object.fromEntries(HIERARCHY_LEVELS.map((l) => [l, fc.option(fc.constant(`P-${l}`), { nil: null })])) as Record<
        HierarchyLevel,
        fc.Arbitrary<string | null>
      >,
    );
    fc.assert(
      fc.property(order, holders, (levels, held) => {
        const expected = [...levels].reverse().find((l) => held[l]);
        const picked = pickPolicy(levels, held);
        expect(picked?.level ?? undefined).toBe(expected);
        if (expected) expect(picked?.policyId).toBe(`P-${expected}`);
      }),
    );
  });
});

describe("normaliseHierarchy", () => {
  it("keeps a full order as stored, from JSON or a list", () => {
    const order = ["case", "matter", "client", "practice_group", "location", "firm"];
    expect(normaliseHierarchy(JSON.stringify(order))).toEqual(order);
    expect(normaliseHierarchy(order)).toEqual(order);
  });

  it("puts levels the list leaves out first, drops unknown names and repeats", () => {
    expect(normaliseHierarchy(["case", "firm", "bogus", "case"])).toEqual(["location", "practice_group", "client", "matter", "case", "firm"]);
    expect(normaliseHierarchy("not json")).toEqual(DEFAULT);
    expect(normaliseHierarchy(null)).toEqual(DEFAULT);
  });
});

describe("isHierarchyPermutation", () => {
  it("accepts the six levels in any order and nothing else", () => {
    expect(isHierarchyPermutation([...DEFAULT].reverse())).toBe(true);
    expect(isHierarchyPermutation(DEFAULT.slice(1))).toBe(false);
    expect(isHierarchyPermutation([...DEFAULT.slice(1), "case"])).toBe(false);
    expect(isHierarchyPermutation([...DEFAULT.slice(1), "office"])).toBe(false);
  });
});
