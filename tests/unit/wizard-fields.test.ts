import { describe, expect, it } from "vitest";
import { changed, editFields, inputFields, recordToInputs } from "../../app/components/fields/form-values";
import { optionLabel, referenceSource } from "../../app/components/fields/reference-sources";
import { REGISTRY } from "../../app/common/resources";
import type { FieldDef } from "../../app/common/resources/types";

const fieldOf = (defKey: keyof typeof REGISTRY, name: string): FieldDef => REGISTRY[defKey].fields.find((f) => f.name === name)!;

describe("fields on forms", () => {
  it("offers inputs only for fields a user fills in and can pick", () => {
    const names = inputFields(REGISTRY.timekeepers).map((f) => f.name);
    expect(names).toContain("additional_receipt_emails");
    expect(names).toContain("location_id");
    expect(names).toContain("storage_policy_id");
    expect(names).toContain("timekeeper_group_id");
    // Computed by the server.
    expect(names).not.toContain("created_at");
    expect(inputFields(REGISTRY["ecfx-jurisdictions"])).toEqual([]);
  });

  it("edits only the fields the API showed this user", () => {
    const shown = editFields(REGISTRY.clients, { id: "c1", name: "Acme", unique_key: "C-1", status: "active" });
    expect(shown.map((f) => f.name)).toEqual(["name", "unique_key", "status"]);
  });

  it("fills inputs from a stored record: lists, check boxes and address boxes", () => {
    const fields = REGISTRY.timekeepers.fields;
    expect(
      recordToInputs(fields, {
        full_name: "Pat",
        is_attorney: true,
        billable: false,
        additional_receipt_emails: ["a@x.test", "b@x.test"],
        location_id: null,
        title: "",
      }),
    ).toEqual({ full_name: "Pat", is_attorney: "on", additional_receipt_emails: "a@x.test\nb@x.test" });
    expect(recordToInputs(REGISTRY.cases.fields, { assigned_timekeepers: ["t1", "t2"] })).toEqual({ assigned_timekeepers: ["t1", "t2"] });
  });

  it("sends a field only when its value really changed", () => {
    const timekeepers = fieldOf("cases", "assigned_timekeepers");
    expect(changed(timekeepers, ["b", "a"], ["a", "b"])).toBe(false);
    expect(changed(timekeepers, ["a"], ["a", "b"])).toBe(true);
    expect(changed(timekeepers, [], null)).toBe(false);
    const attorney = fieldOf("timekeepers", "is_attorney");
    expect(changed(attorney, false, 0)).toBe(false);
    expect(changed(attorney, false, true)).toBe(true);
    const name = fieldOf("clients", "name");
    expect(changed(name, undefined, "")).toBe(false);
    expect(changed(name, "Acme", "Acme")).toBe(false);
    expect(changed(name, undefined, "Acme")).toBe(true);
  });
});

describe("reference sources", () => {
  it("searches registry entries and the firm's roles; nothing else", () => {
    expect(referenceSource("clients")).toMatchObject({ apiPath: "/api/v1/client", titleField: "name", hasDetailPage: true });
    expect(referenceSource("security-roles")).toMatchObject({ apiPath: "/api/v1/security-role-choice", hasDetailPage: true });
    expect(referenceSource("storage-policies")).toMatchObject({ apiPath: "/api/v1/storage-policy", hasDetailPage: true });
    expect(referenceSource("no-such-entity")).toBeUndefined();
    expect(referenceSource(undefined)).toBeUndefined();
  });

  it("names an option by its title and the firm's number for it", () => {
    expect(optionLabel({ id: "1", name: "Acme", unique_key: "C-1" }, "name")).toBe("Acme (C-1)");
    expect(optionLabel({ id: "1", name: "Acme" }, "name")).toBe("Acme");
    expect(optionLabel({ id: "1", name: "C-1", unique_key: "C-1" }, "name")).toBe("C-1");
    expect(optionLabel({ id: "r1" }, "name")).toBe("r1");
  });
});
