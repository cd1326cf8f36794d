import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Button, PasswordInput, Stack, Text } from "../utils/mantine-document";
import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../components/AuthCard";
import { apiRequest, errorOf } from "../utils/api.server";
import { resetSchema } from "../utils/auth-schemas";
import { translateErrors } from "../utils/forms";
import { useRootData } from "../utils/root-data";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.passwordReset" };

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: resetSchema });
  if (submission.status !== "success") return submission.reply({ hideFields: ["newPassword", "confirmPassword"] });
  const response = await apiRequest("/auth/password-reset", {
    method: "POST",
    json: { token: submission.value.token, password: submission.value.newPassword },
  });
  if (response.ok) return redirectWithToast(request, "/login", { type: "success", key: "reset.done" });
  const error = await errorOf(response, "/auth/password-reset");
  const message = response.status < 500 ? (error.body.message ?? "errors:somethingWrong") : "errors:somethingWrong";
  return submission.reply({ formErrors: [message], hideFields: ["newPassword", "confirmPassword"] });
}

export default function PasswordReset() {
  const { t } = useTranslation();
  const root = useRootData();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(resetSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetSchema }),
  });
  const formError = translateErrors(t, form.errors) ?? translateErrors(t, fields.token.errors);
  return (
    <AuthCard branding={root?.branding ?? null} title={t("pages.passwordReset")}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="sm">
          <Text size="sm">{t("reset.intro")}</Text>
          {formError ? (
            <Alert color="red" role="alert" data-testid="reset-error">
              {formError}
            </Alert>
          ) : null}
          <input type="hidden" name="token" value={params.get("token") ?? ""} />
          <PasswordInput
            {...getInputProps(fields.newPassword, { type: "password" })}
            key={fields.newPassword.key}
            label={t("reset.newPassword")}
            autoComplete="new-password"
            error={translateErrors(t, fields.newPassword.errors)}
          />
          <PasswordInput
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            key={fields.confirmPassword.key}
            label={t("reset.confirmPassword")}
            autoComplete="new-password"
            error={translateErrors(t, fields.confirmPassword.errors)}
          />
          <Button type="submit" fullWidth>
            {t("reset.submit")}
          </Button>
        </Stack>
      </Form>
    </AuthCard>
  );
}
