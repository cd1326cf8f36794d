import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Anchor, Button, Group, Stack } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { ResourceDef } from "../../common/resources/types";
import { translateErrors } from "../../utils/forms";
import { useHydrated } from "../../utils/use-hydrated";
import { INTENT_FIELD } from "../../utils/wizard-state";
import { DefaultSubmit } from "./DefaultSubmit";
import { FieldInput, inputStates } from "./FieldInput";
import { UnavailableNotes } from "./UnavailableNotes";
import { editFields, isUnavailableReference, recordToInputs, schemaFor } from "./form-values";
import type { PickerData } from "./reference-sources";
import { FormErrorAlert } from "./FormErrorAlert";

const ANYTHING = z.object({});

interface Props {
  def: ResourceDef;
  record: Record<string, unknown>;
  result?: SubmissionResult<string[]>;
  pickers: Record<string, PickerData>;
  action: string;
  cancelTo: string;
}

/** Edits a record with the same inputs as its wizard; only the changed fields are sent. */
export function EditRecordForm({ def, record, result, pickers, action, cancelTo }: Props) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // Marks the form as interactive (client validation, search as you type) once React runs.
  const hydrated = useHydrated();
  const fields = useMemo(() => editFields(def, record), [def, record]);
  const schema = useMemo(() => schemaFor(def, fields, String(record.id)), [def, fields, record.id]);
  const [form, meta] = useForm<Record<string, string | string[]>>({
    id: `edit-${def.key}-${String(record.id)}`,
    lastResult: result,
    defaultValue: recordToInputs(fields, record),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData, submitter }) => parseWithZod(formData, { schema: submitter?.value.startsWith("narrow:") ? ANYTHING : schema }),
  });
  const inputs = inputStates(
    meta,
    fields.map((f) => f.name),
  );
  const formError = translateErrors(t, form.errors);

  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate data-hydrated={hydrated || undefined}>
      <DefaultSubmit value="save" />
      <Stack>
        <FormErrorAlert error={formError} />
        {fields.map((field) => (
          <FieldInput key={field.name} resourceKey={def.key} field={field} input={inputs[field.name]!} picker={pickers[field.name]} />
        ))}
        <UnavailableNotes resourceKey={def.key} fields={def.fields.filter((f) => f.name in record && isUnavailableReference(f))} />
        <Group justify="flex-end">
          <Anchor component={Link} to={cancelTo} size="sm">
            {t("wizard:cancel")}
          </Anchor>
          <Button type="submit" name={INTENT_FIELD} value="save" loading={navigation.state !== "idle"}>
            {t("wizard:save")}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
