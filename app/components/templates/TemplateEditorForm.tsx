import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Button, Card, Code, Grid, Group, NativeSelect, Stack, Text, TextInput } from "../../utils/mantine";
import { IconEye } from "@tabler/icons-react";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { templates } from "../../common/resources/notifications";
import { fieldLabelKey } from "../../common/resources/types";
import { translateErrors } from "../../utils/forms";
import { INTENT_FIELD } from "../../utils/wizard-state";
import { DefaultSubmit } from "../fields/DefaultSubmit";
import { CodeEditor } from "./CodeEditor";
import { PreviewPane } from "./PreviewPane";
import { type NoticeChoice, type PreviewOutcome, TEMPLATE_FIELD_SNIPPETS } from "../../common/template-preview";
import { FormErrorAlert } from "../fields/FormErrorAlert";

const ANYTHING = z.object({});

interface Props {
  id: string;
  values: { name: string; template: string };
  canWrite: boolean;
  preview: PreviewOutcome;
  /** Recent notices to preview with; the preview says which one it shows. */
  notices: NoticeChoice[];
  result?: SubmissionResult<string[]>;
}

/** Name, HTML source and the preview side by side; Preview and Save are the form's two submits. */
export function TemplateEditorForm({ id, values, canWrite, preview, notices, result }: Props) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get(INTENT_FIELD) : undefined;
  const [form, fields] = useForm<Record<string, string>>({
    id: `template-editor-${id}`,
    lastResult: result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData, submitter }) => parseWithZod(formData, { schema: submitter?.value === "preview" ? ANYTHING : templates.schema }),
  });
  const formError = translateErrors(t, form.errors);

  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      {canWrite ? <DefaultSubmit value="save" /> : null}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <FormErrorAlert error={formError} />
            <TextInput
              name="name"
              label={t(fieldLabelKey(templates.key, "name"))}
              defaultValue={values.name}
              error={translateErrors(t, fields.name?.errors)}
              readOnly={!canWrite}
              required
            />
            <CodeEditor
              name="template"
              label={t(fieldLabelKey(templates.key, "template"))}
              defaultValue={values.template}
              error={translateErrors(t, fields.template?.errors)}
              readOnly={!canWrite}
            />
            <Group justify="flex-end" align="flex-end">
              {notices.length ? (
                <NativeSelect
                  name="inboxItemId"
                  label={t("resources:templates.editor.previewWith")}
                  defaultValue={preview.ok && !preview.preview.sample ? (preview.preview.inboxItemId ?? "") : ""}
                  data={[{ value: "", label: t("resources:templates.editor.latestNotice") }, ...notices.map((n) => ({ value: n.id, label: n.label }))]}
                  maw={360}
                />
              ) : null}
              <Button
                type="submit"
                name={INTENT_FIELD}
                value="preview"
                variant="default"
                leftSection={<IconEye size={16} aria-hidden />}
                loading={busy === "preview"}
              >
                {t("resources:templates.editor.preview")}
              </Button>
              {canWrite ? (
                <Button type="submit" name={INTENT_FIELD} value="save" loading={busy === "save"}>
                  {t("wizard:save")}
                </Button>
              ) : null}
            </Group>
            {!canWrite ? (
              <Text size="sm" c="dimmed" data-testid="read-only">
                {t("wizard:readOnly")}
              </Text>
            ) : null}
            <details>
              <summary>
                <Text span size="sm">
                  {t("resources:templates.editor.fieldsHeading")}
                </Text>
              </summary>
              <Text size="sm" c="dimmed" my="xs">
                {t("resources:templates.editor.fieldsHint")}
              </Text>
              <Stack gap={4}>
                {TEMPLATE_FIELD_SNIPPETS.map((snippet) => (
                  <Code key={snippet}>{snippet}</Code>
                ))}
              </Stack>
            </details>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Card withBorder>
            <PreviewPane outcome={preview} />
          </Card>
        </Grid.Col>
      </Grid>
    </Form>
  );
}
