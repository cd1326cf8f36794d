import { z } from "zod";
import type { FieldDef, ResourceDef } from "../../common/resources/types";
import type { DraftValues } from "../../utils/wizard-state";
import { referenceSource } from "./reference-sources";

// How registry fields travel through a form: which ones a form can hold, the schema that
// validates them, how list inputs are read, and how a stored record fills the inputs.

export const isReferenceKind = (field: FieldDef) => field.kind === "reference" || field.kind === "references";

/** A reference whose entity has no API yet cannot be picked; the form explains instead. */
export const isUnavailableReference = (field: FieldDef) => isReferenceKind(field) && !referenceSource(field.reference);

/**
 * Fields a user fills in: declared in the schema, not computed, and pickable if references.
 * Given names (a wizard step), in the order the step lists them.
 */
export function inputFields(def: ResourceDef, names?: readonly string[]): FieldDef[] {
  const shape = def.schema.shape as Record<string, unknown>;
  const fillable = def.fields.filter((f) => !f.computed && f.name in shape && !isUnavailableReference(f));
  if (!names) return fillable;
  return names.flatMap((name) => fillable.filter((f) => f.name === name));
}

/** The fields an edit form shows: what the user can fill in and the API showed them. */
export function editFields(def: ResourceDef, record: Record<string, unknown>): FieldDef[] {
  return inputFields(def).filter((f) => f.name in record);
}

/** Addresses typed into one box, separated by commas, semicolons, spaces or new lines. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

const toList = (value: unknown) => {
  if (typeof value === "string") return splitList(value);
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === "string" ? splitList(v) : [v]));
  return value;
};

/**
 * The entity's own rules for just these fields (a wizard step, or what an edit form shows).
 * A list box is read as its items first, so the box keeps the text as typed.
 */
export function schemaFor(def: ResourceDef, fields: readonly FieldDef[], id?: string): z.ZodTypeAny {
  const picked = def.schema.pick(Object.fromEntries(fields.map((f) => [f.name, true])) as Record<string, true>);
  const lists = fields.filter((f) => f.kind === "emails" || f.kind === "choices");
  const shape = picked.shape as z.ZodRawShape;
  const object = lists.length === 0 ? picked : picked.extend(Object.fromEntries(lists.map((f) => [f.name, z.preprocess(toList, shape[f.name]!)])));
  const cross = def.crossCheck;
  if (!cross || !cross.fields.every((name) => fields.some((f) => f.name === name))) return object;
  return object.superRefine((values, ctx) => {
    const errors = cross.check(values as Record<string, unknown>, id) ?? {};
    for (const [path, message] of Object.entries(errors)) ctx.addIssue({ code: "custom", path: [path], message });
  });
}

/** A map of names to values as the lines a properties box shows. */
export function propertiesToText(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("\n");
}

/** A stored record as raw input values, the shape the form's inputs start from. */
export function recordToInputs(fields: readonly FieldDef[], record: Record<string, unknown>): DraftValues {
  const out: DraftValues = {};
  for (const field of fields) {
    const value = record[field.name];
    if (value === null || value === undefined || value === "") continue;
    if (field.kind === "boolean") {
      if (value) out[field.name] = "on";
    } else if (field.kind === "emails") {
      out[field.name] = Array.isArray(value) ? value.map(String).join("\n") : String(value);
    } else if (field.kind === "properties") {
      out[field.name] = propertiesToText(value);
    } else if (Array.isArray(value)) {
      out[field.name] = value.map(String);
    } else {
      out[field.name] = String(value);
    }
  }
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** Whether a validated value differs from the stored one (lists compare as sets). */
export function changed(field: FieldDef, next: unknown, stored: unknown): boolean {
  if (field.kind === "boolean") return Boolean(next) !== Boolean(stored);
  if (field.kind === "properties") return propertiesToText(next) !== propertiesToText(stored);
  if (isEmpty(next) && isEmpty(stored)) return false;
  if (Array.isArray(next) || Array.isArray(stored)) {
    const a = (Array.isArray(next) ? next : []).map(String).sort();
    const b = (Array.isArray(stored) ? stored : []).map(String).sort();
    return a.length !== b.length || a.some((v, i) => v !== b[i]);
  }
  return String(next ?? "") !== String(stored ?? "");
}
