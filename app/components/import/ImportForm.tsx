import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Alert, Button, Checkbox, Group, Input, Stack, Text } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ResourceDef } from "../../common/resources/types";
import { useHydrated } from "../../utils/use-hydrated";
import { importFormSchema } from "./import-form";
import type { ImportActionData } from "./import.server";
import { importErrors } from "./messages";

/**
 * The upload: a native file input, so it works without JavaScript. When the API asks for
 * confirmation the same form comes back with a confirm button; with JavaScript the chosen file
 * is still in the input, without it the user chooses it again.
 */
export function ImportForm({ def, posted }: { def: ResourceDef; posted: ImportActionData | undefined }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `import-${def.key}`,
    lastResult: posted?.lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: importFormSchema }),
  });
  const fileError = importErrors(t, fields.file.errors);
  const confirming = Boolean(posted?.confirmation) && !fileError;
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} data-hydrated={hydrated || undefined}>
      <Stack gap="sm">
        {confirming ? (
          <Alert color="yellow" title={t("transfer:import.confirmTitle")} role="alert" data-testid="import-confirm">
            {posted?.confirmation}
            {hydrated ? null : <Text size="sm">{t("transfer:import.chooseAgain")}</Text>}
          </Alert>
        ) : null}
        <Input.Wrapper
          id={fields.file.id}
          label={t("transfer:import.file")}
          description={t("transfer:import.fileHint")}
          error={fileError}
          errorProps={{ id: fields.file.errorId, role: "alert" }}
          withAsterisk
        >
          {/* The chosen file must survive a re-render, so the input is never re-keyed. */}
          <input
            id={fields.file.id}
            name={fields.file.name}
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? fields.file.errorId : undefined}
            style={{ display: "block", marginTop: 4 }}
          />
        </Input.Wrapper>
        {def.importSync ? (
          <Checkbox
            name={fields.sync.name}
            id={fields.sync.id}
            defaultChecked={fields.sync.initialValue === "on"}
            label={t("transfer:import.sync")}
            description={t("transfer:import.syncHint")}
          />
        ) : null}
        <Group>
          {confirming ? (
            <Button type="submit" name={fields.confirm.name} value="on" color="yellow" loading={busy}>
              {t("transfer:import.confirmSubmit")}
            </Button>
          ) : (
            <Button type="submit" loading={busy}>
              {t("transfer:import.submit")}
            </Button>
          )}
        </Group>
      </Stack>
    </Form>
  );
}
