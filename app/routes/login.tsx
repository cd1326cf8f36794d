import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../components/AuthCard";
import { AuthorizationError } from "remix-auth";
import { authenticatorFor } from "../utils/auth.server";
import { loginSchema } from "../utils/auth-schemas";
import { translateErrors } from "../utils/forms";
import { useRootData } from "../utils/root-data";
import { safeRedirect } from "../utils/safe-redirect";
import { readSession } from "../utils/session.server";
import { oversizedFields, readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.login" };

export async function loader({ request }: LoaderFunctionArgs) {
  if (await readSession(request)) throw redirect(safeRedirect(new URL(request.url).searchParams.get("from")));
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    // A huge value is refused, not shown back: the page stays small whatever was sent.
    const oversized = oversizedFields(form);
    const reply = submission.reply({ hideFields: ["password", ...oversized] });
    return oversized.length ? data(reply, { status: 400 }) : reply;
  }
  try {
    return await authenticatorFor(request).authenticate("form", request, {
      successRedirect: safeRedirect(submission.value.from),
      throwOnError: true,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // remix-auth re-throws the strategy's refusal as an AuthorizationError with its message.
    const message = error instanceof AuthorizationError ? error.message : "errors:somethingWrong";
    return submission.reply({ formErrors: [message], hideFields: ["password"] });
  }
}

export default function Login() {
  const { t } = useTranslation();
  const root = useRootData();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  const branding = root?.branding ?? null;
  const formError = translateErrors(t, form.errors);

  return (
    <AuthCard branding={branding} title={t("login.heading", { firm: branding?.name ?? t("appName") })}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="sm">
          {formError ? (
            <Alert color="red" role="alert" data-testid="login-error">
              {formError}
            </Alert>
          ) : null}
          <input type="hidden" name="from" value={params.get("from") ?? ""} />
          <TextInput
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
            label={t("login.email")}
            autoComplete="username"
            autoFocus
            error={translateErrors(t, fields.email.errors)}
          />
          <PasswordInput
            {...getInputProps(fields.password, { type: "password" })}
            key={fields.password.key}
            label={t("login.password")}
            autoComplete="current-password"
            error={translateErrors(t, fields.password.errors)}
          />
          <Button type="submit" loading={navigation.state === "submitting"} fullWidth>
            {t("login.submit")}
          </Button>
          <Anchor component={Link} to="/password-forgot" size="sm" ta="center">
            {t("login.forgot")}
          </Anchor>
        </Stack>
      </Form>
      <Divider />
      <Button variant="default" fullWidth disabled aria-describedby="sso-note">
        {t("login.sso")}
      </Button>
      <Text id="sso-note" size="xs" c="dimmed" ta="center">
        {t("login.ssoUnavailable")}
      </Text>
    </AuthCard>
  );
}
