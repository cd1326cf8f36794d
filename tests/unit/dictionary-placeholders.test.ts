import { describe, expect, it } from "vitest";
import { catalogueEntries, dictionaryValueProblems, placeholdersOf, withOverrides } from "../../app/common/dictionary";

// A firm's text must keep the default's placeholders, in each syntax the catalogue uses.
describe("dictionary placeholders", () => {
  it("reads i18next interpolation with formats, nesting and single-brace placeholders", () => {
    expect(placeholdersOf("{{ count ,number }} of {{total}}, $t(common:appName) by {column}")).toEqual([
      "{{count, number}}",
      "{{total}}",
      "$t(common:appName)",
      "{column}",
    ]);
    expect(placeholdersOf("No placeholder here")).toEqual([]);
  });

  it("accepts a text with the same placeholders in another order, and refuses one more, one fewer, empty or too long", () => {
    expect(dictionaryValueProblems("User {{email}} in {{firm}}", "{{firm}} has {{email}}")).toEqual([]);
    expect(dictionaryValueProblems("Sort by {column}", "Order by {column}")).toEqual([]);
    expect(dictionaryValueProblems("Sort by {column}", "Order by {{column}}").map((p) => p.key)).toEqual([
      "errors:dictionaryUnknownPlaceholder",
      "errors:dictionaryMissingPlaceholder",
    ]);
    expect(dictionaryValueProblems("Clients", "Clients of {{firm}}")).toEqual([
      { key: "errors:dictionaryUnknownPlaceholder", values: { placeholders: "{{firm}}", expected: "—" } },
    ]);
    expect(dictionaryValueProblems("Clients", " ")).toEqual([{ key: "errors:dictionaryEmpty" }]);
    expect(dictionaryValueProblems("Clients", "x".repeat(2001))).toEqual([{ key: "errors:dictionaryTooLong", values: { max: 2000 } }]);
  });

  it("merges overrides over the catalogue without changing it, ignoring keys it does not have", () => {
    const catalogue = { common: { pages: { clients: "Clients", cases: "Cases" } }, errors: { notFound: "Not found." } };
    const merged = withOverrides(catalogue, { common: { "pages.clients": "Customers", "pages.nothing": "x" }, other: { a: "b" } });
    expect(merged).toEqual({ common: { pages: { clients: "Customers", cases: "Cases" } }, errors: { notFound: "Not found." } });
    expect(catalogue.common.pages.clients).toBe("Clients");
    expect(merged.errors).toBe(catalogue.errors);
    expect(catalogueEntries(merged)).toContainEqual({ namespace: "common", key: "pages.clients", text: "Customers" });
  });
});
