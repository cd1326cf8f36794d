import { z } from "zod";

// The state of a stepper wizard rides in the form itself: one hidden input holds the current
// step and the raw values of every step, exactly as typed, so Back shows them again. Nothing is
// kept on the server between steps; the last step validates every step again, so a value edited
// in the hidden input gains nothing.

/** Raw form values by input name: a string, or a list for inputs that repeat (multi pickers). */
export type DraftValues = Record<string, string | string[]>;

export interface WizardState {
  step: number;
  values: DraftValues;
}

export const WIZARD_STATE_FIELD = "wizard-state";
export const INTENT_FIELD = "intent";

export type WizardIntent = { type: "back" } | { type: "next" } | { type: "create" } | { type: "narrow"; field: string };

const NARROW_PREFIX = "narrow:";

/** The value of a submit button that narrows the options of one picker (the no-JS search). */
export const narrowIntent = (field: string) => `${NARROW_PREFIX}${field}`;

const stateSchema = z.object({
  step: z.number().int().min(0),
  values: z.record(z.union([z.string(), z.array(z.string())])),
});

export const initialState = (): WizardState => ({ step: 0, values: {} });

export function encodeState(state: WizardState): string {
  return JSON.stringify(state);
}

/** The state posted back; anything unreadable starts the wizard afresh. */
export function decodeState(raw: FormDataEntryValue | null | undefined, stepCount: number): WizardState {
  if (typeof raw !== "string" || raw === "") return initialState();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return initialState();
  }
  const result = stateSchema.safeParse(parsed);
  if (!result.success) return initialState();
  return { step: Math.min(result.data.step, Math.max(0, stepCount - 1)), values: result.data.values };
}

/** The intent of the submit button; a form sent without one (Enter in a field) means Next. */
export function parseIntent(raw: FormDataEntryValue | null | undefined): WizardIntent {
  if (raw === "back" || raw === "create") return { type: raw };
  if (typeof raw === "string" && raw.startsWith(NARROW_PREFIX)) return { type: "narrow", field: raw.slice(NARROW_PREFIX.length) };
  return { type: "next" };
}

/** The non-empty text values of the named inputs; files are never part of a wizard. */
export function readValues(formData: FormData, names: readonly string[]): DraftValues {
  const out: DraftValues = {};
  for (const name of names) {
    const all = formData.getAll(name).filter((v): v is string => typeof v === "string" && v !== "");
    if (all.length === 1) out[name] = all[0]!;
    else if (all.length > 1) out[name] = all;
  }
  return out;
}

/** The state with the named inputs replaced by these values (an input left empty is dropped). */
export function withValues(state: WizardState, names: readonly string[], values: DraftValues): WizardState {
  const kept = Object.fromEntries(Object.entries(state.values).filter(([name]) => !names.includes(name)));
  return { ...state, values: { ...kept, ...values } };
}

export function moveTo(state: WizardState, step: number, stepCount: number): WizardState {
  return { ...state, step: Math.max(0, Math.min(step, stepCount - 1)) };
}

/** The values as a form submission, for validating steps that are not on screen. */
export function toFormData(values: DraftValues): FormData {
  const formData = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const v of Array.isArray(value) ? value : [value]) formData.append(name, v);
  }
  return formData;
}

/** "assigned_timekeepers.0" and "emails[2]" belong to the inputs "assigned_timekeepers" and "emails". */
export function inputOf(errorKey: string): string {
  return errorKey.split(/[.[]/)[0] ?? errorKey;
}

/** Index of the first step that owns one of the fields in error, or null when none does. */
export function firstStepWithErrors(steps: readonly { names: readonly string[] }[], fieldErrors: Record<string, unknown>): number | null {
  const inputs = new Set(Object.keys(fieldErrors).map(inputOf));
  const index = steps.findIndex((s) => s.names.some((n) => inputs.has(n)));
  return index === -1 ? null : index;
}

/** Field errors keyed by input name, keeping only those of the given inputs. */
export function errorsFor(names: readonly string[], fieldErrors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const input = inputOf(key);
    if (names.includes(input)) (out[input] ??= []).push(...messages);
  }
  return out;
}
