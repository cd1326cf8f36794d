import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { Alert, Button, Card, Fieldset, Group, SimpleGrid, Stack, Title } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FirmRecord } from "../../common/firm-schema";
import { translateErrors } from "../../utils/forms";
import { useHydrated } from "../../utils/use-hydrated";
import { DefaultSubmit } from "../fields/DefaultSubmit";
import { FieldInput, inputErrors, inputStates } from "../fields/FieldInput";
import { FormErrorAlert } from "../fields/FormErrorAlert";
import { recordToInputs } from "../fields/form-values";
import { ColorField } from "./ColorField";
import { type FirmField, type FirmSettingsPage, fieldsOf, parseFirmForm } from "./firm-fields";
import { FirmSelect } from "./FirmSelect";

interface Option {
  value: string;
  label: string;
}

interface Props {
  page: FirmSettingsPage;
  firm: FirmRecord;
  templates: Option[];
  timeZones: readonly string[];
  canEdit: boolean;
  result?: SubmissionResult<string[]>;
}

/** A page's firm settings in sections; a role that may only read sees them disabled, without Save. */
export function FirmSettingsForm({ page, firm, templates, timeZones, canEdit, result }: Props) {
  const { t } = useTranslation("firm");
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  const [form, meta] = useForm<Record<string, string | string[]>>({
    id: "firm-settings",
    lastResult: result,
    defaultValue: recordToInputs(fieldsOf(page), firm as unknown as Record<string, unknown>),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseFirmForm(formData, page),
  });
  const inputs = inputStates(
    meta,
    fieldsOf(page).map((f) => f.name),
  );

  const optionsOf = (field: FirmField): Option[] => {
    if (field.source === "templates") return [{ value: "", label: t("noTemplate") }, ...templates];
    if (field.source === "timeZones") return timeZones.map((zone) => ({ value: zone, label: zone }));
    return (field.options ?? []).map((value) => ({ value, label: t(`options.${field.name}.${value}`, { defaultValue: value }) }));
  };

  const renderField = (field: FirmField) => {
    const input = inputs[field.name]!;
    const label = t(`fields.${field.name}`);
    if (field.color) return <ColorField key={field.name} field={field} input={input} label={label} />;
    if (field.kind === "select") {
      const error = translateErrors(t, inputErrors(input));
      return <FirmSelect key={field.name} input={input} label={label} error={error} options={optionsOf(field)} />;
    }
    return <FieldInput key={field.name} resourceKey="firm" field={field} input={input} label={label} />;
  };

  return (
    <Form method="post" {...getFormProps(form)} noValidate data-testid="firm-settings" data-hydrated={hydrated || undefined}>
      {canEdit ? <DefaultSubmit value="save" /> : null}
      {/* A disabled fieldset shows the values to a read-only role and posts nothing. */}
      <Fieldset variant="unstyled" disabled={!canEdit}>
        <Stack>
          {canEdit ? null : (
            <Alert color="yellow" data-testid="read-only">
              {t("readOnly")}
            </Alert>
          )}
          <FormErrorAlert error={translateErrors(t, form.errors)} />
          {page.sections.map((section) => (
            <Card withBorder key={section.key} data-section={section.key}>
              <Title order={2} size="h4" mb="sm">
                {t(`sections.${section.key}`)}
              </Title>
              <SimpleGrid cols={{ base: 1, md: 2 }}>{section.fields.map(renderField)}</SimpleGrid>
            </Card>
          ))}
          {canEdit ? (
            <Group justify="flex-end">
              <Button type="submit" name="intent" value="save" loading={busy}>
                {t("save")}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Fieldset>
    </Form>
  );
}
