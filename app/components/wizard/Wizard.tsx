import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Anchor, Button, Card, Group, Stack, Stepper, Text } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { ResourceDef } from "../../common/resources/types";
import { translateErrors } from "../../utils/forms";
import { useHydrated } from "../../utils/use-hydrated";
import { INTENT_FIELD, WIZARD_STATE_FIELD, encodeState } from "../../utils/wizard-state";
import { DefaultSubmit } from "../fields/DefaultSubmit";
import { FieldInput, inputStates } from "../fields/FieldInput";
import { UnavailableNotes } from "../fields/UnavailableNotes";
import { MatterChoiceStep } from "./MatterChoiceStep";
import { type PlanStep, wizardPlan } from "./plan";
import type { WizardView } from "./wizard.server";
import { FormErrorAlert } from "../fields/FormErrorAlert";

const ANYTHING = z.object({});

/** Back and the pickers' search keep what was typed without judging it. */
const judges = (submitter: HTMLInputElement | HTMLButtonElement | null | undefined) =>
  !submitter || !(submitter.name === INTENT_FIELD && (submitter.value === "back" || submitter.value.startsWith("narrow:")));

function StepForm({ def, plan, view }: { def: ResourceDef; plan: PlanStep[]; view: WizardView }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // Marks the form as interactive (client validation, search as you type) once React runs.
  const hydrated = useHydrated();
  const index = view.state.step;
  const step = plan[index]!;
  const last = index === plan.length - 1;
  const defaults = Object.fromEntries(step.names.flatMap((n) => (n in view.state.values ? [[n, view.state.values[n]!]] : [])));
  const [form, fields] = useForm<Record<string, string | string[]>>({
    id: `wizard-${def.key}-${index}`,
    lastResult: view.result,
    defaultValue: defaults,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData, submitter }) => parseWithZod(formData, { schema: judges(submitter) ? step.schema : ANYTHING }),
  });
  const inputs = inputStates(fields, step.names);
  const formError = translateErrors(t, form.errors);
  const busy = navigation.state !== "idle";

  return (
    <Form method="post" {...getFormProps(form)} noValidate data-hydrated={hydrated || undefined}>
      <DefaultSubmit value={last ? "create" : "next"} />
      <input type="hidden" name={WIZARD_STATE_FIELD} value={encodeState(view.state)} />
      <Stack>
        <FormErrorAlert error={formError} />
        {step.kind === "matterChoice" ? (
          <MatterChoiceStep def={def} fields={inputs} pickers={view.pickers} />
        ) : (
          step.fields.map((field) => (
            <FieldInput key={field.name} resourceKey={def.key} field={field} input={inputs[field.name]!} picker={view.pickers[field.name]} />
          ))
        )}
        <UnavailableNotes resourceKey={def.key} fields={step.unavailable} />
        <Group justify="space-between" mt="md">
          <Anchor component={Link} to={`/${def.key}`} size="sm">
            {t("wizard:cancel")}
          </Anchor>
          <Group gap="sm">
            {index > 0 ? (
              <Button type="submit" name={INTENT_FIELD} value="back" variant="default" formNoValidate disabled={busy}>
                {t("wizard:back")}
              </Button>
            ) : null}
            <Button type="submit" name={INTENT_FIELD} value={last ? "create" : "next"} loading={busy}>
              {t(last ? "wizard:create" : "wizard:next")}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Form>
  );
}

/** The stepper wizard that adds an entity: one real POST per step, state carried in the form. */
export function Wizard({ def, view }: { def: ResourceDef; view: WizardView }) {
  const { t } = useTranslation();
  const plan = useMemo(() => wizardPlan(def), [def]);
  return (
    <Card withBorder maw={760}>
      <Stepper active={view.state.step} size="sm" mb="lg" allowNextStepsSelect={false}>
        {plan.map((step) => (
          <Stepper.Step key={step.key} label={t(step.labelKey)} />
        ))}
      </Stepper>
      <Text size="xs" c="dimmed" mb="sm" data-testid="wizard-step">
        {t("wizard:stepOf", { step: view.state.step + 1, count: plan.length, name: t(plan[view.state.step]!.labelKey) })}
      </Text>
      {/* A new form per step, so each starts from the values kept for it. */}
      <StepForm key={view.state.step} def={def} plan={plan} view={view} />
    </Card>
  );
}
