import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Anchor, Button, Stack, Text, TextInput } from "../utils/mantine-document";
import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../components/AuthCard";
import { apiRequest, errorOf } from "../utils/api.server";
import { forwardedFor } from "../utils/auth.server";
import { forgotSchema } from "../utils/auth-schemas";
import { translateErrors } from "../utils/forms";
import { useRootData } from "../utils/root-data";
import { readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.passwordForgot" };

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: forgotSchema });
  if (submission.status !== "success") return { result: submission.reply(), sent: false };
  const response = await apiRequest("/auth/password-forgot", {
    method: "POST",
    json: submission.value,
    forwardedFor: forwardedFor(request),
  });
  if (response.ok) return { result: submission.reply({ resetForm: true }), sent: true };
  const error = await errorOf(response, "/auth/password-forgot");
  const message = response.status < 500 ? (error.body.message ?? "errors:somethingWrong") : "errors:somethingWrong";
  return { result: submission.reply({ formErrors: [message] }), sent: false };
}

export default function PasswordForgot() {
  const { t } = useTranslation();
  const root = useRootData();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(forgotSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotSchema }),
  });
  const formError = translateErrors(t, form.errors);
  return (
    <AuthCard branding={root?.branding ?? null} title={t("pages.passwordForgot")}>
      {actionData?.sent ? (
        <Alert color="green" role="status" data-testid="reset-sent">
          {t("forgot.sent")}
        </Alert>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="sm">
            <Text size="sm">{t("forgot.intro")}</Text>
            {formError ? (
              <Alert color="red" role="alert">
                {formError}
              </Alert>
            ) : null}
            <TextInput
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              label={t("login.email")}
              autoComplete="username"
              error={translateErrors(t, fields.email.errors)}
            />
            <Button type="submit" fullWidth>
              {t("forgot.submit")}
            </Button>
          </Stack>
        </Form>
      )}
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t("forgot.back")}
      </Anchor>
    </AuthCard>
  );
}
