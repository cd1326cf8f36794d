import { type SubmissionResult, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Button, Card, PasswordInput, Stack, Title } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { changePasswordSchema } from "../../utils/auth-schemas";
import { translateErrors } from "../../utils/forms";

const PASSWORD_FIELDS = [
  { name: "currentPassword", label: "profile.currentPassword", autoComplete: "current-password" },
  { name: "newPassword", label: "profile.newPassword", autoComplete: "new-password" },
  { name: "confirmPassword", label: "profile.confirmPassword", autoComplete: "new-password" },
] as const;

/** The change-password form: checked in the browser when it can be, always again by the action. */
export function ChangePasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(changePasswordSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  const formError = translateErrors(t, form.errors);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("profile.changePassword")}
      </Title>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="sm">
          {formError ? (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          ) : null}
          {PASSWORD_FIELDS.map(({ name, label, autoComplete }) => (
            <PasswordInput
              {...getInputProps(fields[name], { type: "password" })}
              key={fields[name].key}
              label={t(label)}
              autoComplete={autoComplete}
              error={translateErrors(t, fields[name].errors)}
            />
          ))}
          <Button type="submit">{t("profile.submit")}</Button>
        </Stack>
      </Form>
    </Card>
  );
}
