import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ResourceDef } from "../../common/resources/types";
import type { ApiClient } from "../../utils/auth.server";
import { remixI18n } from "../../utils/i18n.server";
import { redirectWithToast } from "../../utils/toast.server";
import {
  type DraftValues,
  INTENT_FIELD,
  WIZARD_STATE_FIELD,
  type WizardState,
  decodeState,
  errorsFor,
  firstStepWithErrors,
  initialState,
  moveTo,
  parseIntent,
  readValues,
  toFormData,
  withValues,
} from "../../utils/wizard-state";
import { pickerData } from "../fields/record-api.server";
import type { PickerData } from "../fields/reference-sources";
import { type CreateOutcome, createCase, createRecordOf } from "./create.server";
import type { MatterChoice } from "./matter-choice";
import { type PlanStep, wizardPlan } from "./plan";
import { readForm } from "../../utils/request-body.server";

/** What the wizard page renders: where it stands, the last step's result, the pickers' options. */
export interface WizardView {
  state: WizardState;
  result?: SubmissionResult<string[]>;
  pickers: Record<string, PickerData>;
}

/** Longer than any field of a wizard: an address cannot fill one with more. */
const PREFILL_MAX = 1000;

const asList = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

async function viewOf(
  api: ApiClient,
  plan: PlanStep[],
  state: WizardState,
  result?: SubmissionResult<string[]>,
  narrow: Record<string, string> = {},
): Promise<WizardView> {
  const step = plan[state.step]!;
  const pickers = await pickerData(
    api,
    step.pickers.map((p) => ({ ...p, selected: asList(state.values[p.name]), query: narrow[p.name] })),
  );
  return { state, result, pickers };
}

/**
 * A new wizard, its fields filled from the address's parameters of the same names (a link such as
 * the inbox card's "create the case from this notice"): the person still checks every step.
 */
export function wizardStart(api: ApiClient, def: ResourceDef, prefill = new URLSearchParams()): Promise<WizardView> {
  const plan = wizardPlan(def);
  const names = plan.flatMap((s) => s.names);
  const values = Object.fromEntries(names.flatMap((name) => (prefill.get(name) ? [[name, prefill.get(name)!.slice(0, PREFILL_MAX)]] : [])));
  return viewOf(api, plan, withValues(initialState(), names, values));
}

const parseStep = (step: PlanStep, values: DraftValues) => parseWithZod(toFormData(values), { schema: step.schema });

type Checked = { ok: true; values: Record<string, unknown>; matterChoice?: MatterChoice } | { ok: false; step: number; result: SubmissionResult<string[]> };

/** Every step again, from the draft: the first step in error is where the user goes back to. */
function checkAll(plan: PlanStep[], values: DraftValues): Checked {
  const out: Record<string, unknown> = {};
  let matterChoice: MatterChoice | undefined;
  for (const [index, step] of plan.entries()) {
    const submission = parseStep(step, values);
    if (submission.status !== "success") return { ok: false, step: index, result: submission.reply() };
    if (step.kind === "matterChoice") matterChoice = submission.value as MatterChoice;
    else Object.assign(out, submission.value);
  }
  return { ok: true, values: out, matterChoice };
}

/** A failed creation shown on the step that holds the first field in error (else the last). */
async function failedView(request: Request, api: ApiClient, plan: PlanStep[], state: WizardState, outcome: Extract<CreateOutcome, { ok: false }>) {
  const next = withValues(state, Object.keys(outcome.draft), outcome.draft);
  const holding = outcome.at ? plan.findIndex((s) => s.names.includes(outcome.at!)) : -1;
  const index = firstStepWithErrors(plan, outcome.fieldErrors) ?? (holding >= 0 ? holding : plan.length - 1);
  const step = plan[index]!;
  const stray = Object.entries(outcome.fieldErrors)
    .filter(([field]) => !plan.some((s) => s.names.includes(field)))
    .flatMap(([, messages]) => messages);
  let formError = outcome.formError;
  if (outcome.caseCreation && formError) {
    const t = await remixI18n.getFixedT(request);
    formError = t("errors:caseCreation", { error: formError.startsWith("errors:") ? t(formError) : formError });
  }
  const result = parseStep(step, next.values).reply({
    formErrors: [...(formError ? [formError] : []), ...stray],
    fieldErrors: errorsFor(step.names, outcome.fieldErrors),
  });
  return viewOf(api, plan, moveTo(next, index, plan.length), result);
}

/**
 * One POST of the wizard. Back keeps what was typed without judging it; a picker's search
 * narrows its options; Next validates the step; Create validates every step, then calls the API.
 */
export async function wizardAction(request: Request, api: ApiClient, def: ResourceDef): Promise<WizardView | Response> {
  const formData = await readForm(request);
  const plan = wizardPlan(def);
  const posted = decodeState(formData.get(WIZARD_STATE_FIELD), plan.length);
  const step = plan[posted.step]!;
  const state = withValues(posted, step.names, readValues(formData, step.names));
  const intent = parseIntent(formData.get(INTENT_FIELD));

  if (intent.type === "back") return viewOf(api, plan, moveTo(state, state.step - 1, plan.length));
  if (intent.type === "narrow") {
    return viewOf(api, plan, state, undefined, { [intent.field]: String(formData.get(`pick.${intent.field}`) ?? "") });
  }
  const submission = parseWithZod(formData, { schema: step.schema });
  if (submission.status !== "success") return viewOf(api, plan, state, submission.reply());
  if (intent.type === "next" && state.step < plan.length - 1) return viewOf(api, plan, moveTo(state, state.step + 1, plan.length));

  const checked = checkAll(plan, state.values);
  if (!checked.ok) return viewOf(api, plan, moveTo(state, checked.step, plan.length), checked.result);
  const outcome = checked.matterChoice ? await createCase(api, def, checked.values, checked.matterChoice) : await createRecordOf(api, def, checked.values);
  if (!outcome.ok) return failedView(request, api, plan, state, outcome);
  return redirectWithToast(request, `/${def.key}/${encodeURIComponent(outcome.id)}`, { type: "success", key: "wizard:created", values: { resource: def.key } });
}
