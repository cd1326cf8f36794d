import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { schemaFor } from "../../app/components/fields/form-values";
import { matterChoiceSchema } from "../../app/components/wizard/matter-choice";
import { type PlanStep, wizardPlan } from "../../app/components/wizard/plan";
import { REGISTRY } from "../../app/common/resources";
import { toFormData } from "../../app/utils/wizard-state";

/** The registry fields a plan step covers: its inputs (the matter choice stands for matter_id) and its notes. */
function expandedFieldNames(step: PlanStep): string[] {
  const inputs = step.kind === "matterChoice" ? ["matter_id"] : step.fields.map((f) => f.name);
  return [...inputs, ...step.unavailable.map((f) => f.name)];
}

/** A step's verdict on raw values: the parsed value, or the errors by input name. */
function parse(schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string | string[]>) {
  const submission = parseWithZod(toFormData(values), { schema });
  return submission.status === "success" ? { value: submission.value as unknown, error: undefined } : { value: undefined, error: submission.error };
}

describe("wizard plans from the registry", () => {
  it("gives every entity with wizard steps one plan step per declared step", () => {
    for (const def of Object.values(REGISTRY)) {
      const plan = wizardPlan(def);
      expect(plan.map((s) => s.key)).toEqual(def.wizard.map((s) => s.key));
      // Every declared field is either an input of its step or explained as not pickable yet.
      for (const [i, step] of plan.entries()) {
        expect(expandedFieldNames(step).sort()).toEqual([...def.wizard[i]!.fields].sort());
      }
    }
  });

  it("explains references to entities without an API instead of offering an empty picker", () => {
    // A case whose storage policy pointed at an entity without an API yet.
    const cases = {
      ...REGISTRY.cases,
      fields: REGISTRY.cases.fields.map((f) => (f.name === "storage_policy_id" ? { ...f, reference: "no-such-entity" } : f)),
    };
    const storage = wizardPlan(cases).find((s) => s.key === "storage")!;
    expect(storage.unavailable.map((f) => f.name)).toEqual(["storage_policy_id"]);
    expect(storage.names).toEqual(["reference_id", "unique_key"]);
    expect(wizardPlan(REGISTRY.cases).find((s) => s.key === "storage")!.names).toEqual(["storage_policy_id", "reference_id", "unique_key"]);
    const users = wizardPlan(REGISTRY.users).find((s) => s.key === "access")!;
    expect(users.pickers).toEqual([
      { name: "security_role_id", reference: "security-roles" },
      { name: "timekeeper_id", reference: "timekeepers" },
    ]);
  });

  it("validates a step with the entity's own rules, only for the step's fields", () => {
    const [first] = wizardPlan(REGISTRY.clients);
    const bad = parse(first!.schema, {});
    expect(bad.error).toMatchObject({ name: ["errors:required"], unique_key: ["errors:required"] });
    const good = parse(first!.schema, { name: "Acme", unique_key: "C-1", reference_id: "ignored here" });
    expect(good.value).toEqual({ name: "Acme", unique_key: "C-1", status: "active" });
  });

  it("asks for at least one timekeeper on the case's timekeepers step", () => {
    const step = wizardPlan(REGISTRY.cases).find((s) => s.key === "timekeepers")!;
    expect(parse(step.schema, {}).error).toMatchObject({ assigned_timekeepers: ["errors:atLeastOneTimekeeper"] });
    const one = parse(step.schema, { assigned_timekeepers: "t1" });
    expect(one.value).toEqual({ assigned_timekeepers: ["t1"] });
  });

  it("reads a box of e-mail addresses as a list and flags repeats", () => {
    const def = REGISTRY.timekeepers;
    const schema = schemaFor(
      def,
      def.fields.filter((f) => f.name === "additional_receipt_emails"),
    );
    const ok = parse(schema, { additional_receipt_emails: "a@x.test, b@x.test\nc@x.test" });
    expect(ok.value).toEqual({ additional_receipt_emails: ["a@x.test", "b@x.test", "c@x.test"] });
    const repeated = parse(schema, { additional_receipt_emails: "a@x.test; A@x.test" });
    expect(repeated.error).toEqual({ "additional_receipt_emails[1]": ["errors:emailAddedAlready"] });
    const empty = parse(schema, {});
    expect(empty.value).toEqual({ additional_receipt_emails: [] });
  });
});

describe("the case wizard's matter step", () => {
  it("swaps the matter picker for the existing-or-new choice", () => {
    const step = wizardPlan(REGISTRY.cases).find((s) => s.key === "matter")!;
    expect(step.kind).toBe("matterChoice");
    expect(step.pickers.map((p) => p.reference)).toEqual(["matters", "clients"]);
  });

  it("needs the matter when an existing one is chosen", () => {
    expect(parse(matterChoiceSchema, { matter_mode: "existing" }).error).toEqual({ matter_id: ["errors:required"] });
    const ok = parse(matterChoiceSchema, { matter_id: "m1" });
    expect(ok.value).toEqual({ mode: "existing", matterId: "m1" });
  });

  it("needs name and number of a new matter, and its client", () => {
    expect(parse(matterChoiceSchema, { matter_mode: "new" }).error).toEqual({
      matter_name: ["errors:required"],
      matter_unique_key: ["errors:required"],
      client_id: ["errors:required"],
    });
    const ok = parse(matterChoiceSchema, { matter_mode: "new", matter_name: " Smith ", matter_unique_key: "M-1", client_id: "c1", matter_id: "stale" });
    expect(ok.value).toEqual({ mode: "new", matter: { name: "Smith", unique_key: "M-1" }, client: { mode: "existing", id: "c1" } });
  });

  it("needs name and number of a new client made in place", () => {
    expect(parse(matterChoiceSchema, { matter_mode: "new", matter_name: "S", matter_unique_key: "M", client_mode: "new" }).error).toEqual({
      client_name: ["errors:required"],
      client_unique_key: ["errors:required"],
    });
    const ok = parse(matterChoiceSchema, {
      matter_mode: "new",
      matter_name: "S",
      matter_unique_key: "M",
      client_mode: "new",
      client_name: "Acme",
      client_unique_key: "C-9",
    });
    expect(ok.value).toEqual({
      mode: "new",
      matter: { name: "S", unique_key: "M" },
      client: { mode: "new", name: "Acme", unique_key: "C-9" },
    });
  });
});
