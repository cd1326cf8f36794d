import type { z } from "zod";
import type { FieldDef, ResourceDef } from "../../common/resources/types";
import { inputFields, isUnavailableReference, schemaFor } from "../fields/form-values";
import { MATTER_CHOICE_INPUTS, matterChoiceSchema } from "./matter-choice";

// The steps of a wizard, derived from the registry entry's `wizard` declaration. Each step
// knows its inputs, the schema that validates them (the entity's schema picked to the step's
// fields) and the fields it can only explain. The case wizard swaps its matter step for the
// matter-or-new-matter choice.

export interface PlanStep {
  key: string;
  labelKey: string;
  kind: "fields" | "matterChoice";
  /** Registry fields the step shows as inputs. */
  fields: FieldDef[];
  /** Fields whose entity cannot be picked yet (no API): shown as a sentence. */
  unavailable: FieldDef[];
  /** Input names the step owns in the wizard's state. */
  names: string[];
  schema: z.ZodTypeAny;
  /** Reference inputs of the step and the registry key each searches. */
  pickers: { name: string; reference: string }[];
}

const stepLabelKey = (def: ResourceDef, step: string) => `resources:${def.key}.steps.${step}`;

const pickersOf = (fields: FieldDef[]) =>
  fields.filter((f) => (f.kind === "reference" || f.kind === "references") && f.reference).map((f) => ({ name: f.name, reference: f.reference! }));

function fieldsStep(def: ResourceDef, key: string, names: string[]): PlanStep {
  const fields = inputFields(def, names);
  return {
    key,
    labelKey: stepLabelKey(def, key),
    kind: "fields",
    fields,
    unavailable: def.fields.filter((f) => names.includes(f.name) && isUnavailableReference(f)),
    names: fields.map((f) => f.name),
    schema: schemaFor(def, fields),
    pickers: pickersOf(fields),
  };
}

function matterChoiceStep(def: ResourceDef, key: string): PlanStep {
  return {
    key,
    labelKey: stepLabelKey(def, key),
    kind: "matterChoice",
    fields: [],
    unavailable: [],
    names: [...MATTER_CHOICE_INPUTS],
    schema: matterChoiceSchema,
    pickers: [
      { name: "matter_id", reference: "matters" },
      { name: "client_id", reference: "clients" },
    ],
  };
}

export function wizardPlan(def: ResourceDef): PlanStep[] {
  return def.wizard.map((step) => (step.kind === "matterChoice" ? matterChoiceStep(def, step.key) : fieldsStep(def, step.key, step.fields)));
}

/** The registry fields the plan's steps fill in, for reading and validating the whole draft. */
export function planFields(plan: PlanStep[]): FieldDef[] {
  return plan.flatMap((s) => s.fields);
}
