import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from "../utils/mantine-document";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../components/AuthCard";
import { loginSchema } from "../utils/auth-schemas";
import { translateErrors } from "../utils/forms";
import { redirectSignedIn, signIn } from "../utils/login.server";
import { useRootData } from "../utils/root-data";

export const handle = { titleKey: "pages.login" };

export const loader = ({ request }: LoaderFunctionArgs) => redirectSignedIn(request);

export const action = ({ request }: ActionFunctionArgs) => signIn(request);

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
  // A firm that signs in through its identity provider: a plain link, so it works without JavaScript.
  const ssoPath = branding?.signon_type === "saml" ? "/auth/saml/login" : branding?.signon_type === "oidc" ? "/auth/oidc/login" : null;
  const from = params.get("from");
  const ssoHref = ssoPath ? `${ssoPath}${from ? `?from=${encodeURIComponent(from)}` : ""}` : null;

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
          {/* Staff of a firm on single sign-on have no password here to reset; its break-glass administrator opens /password-forgot. */}
          {ssoPath ? null : (
            <Anchor component={Link} to="/password-forgot" size="sm" ta="center">
              {t("login.forgot")}
            </Anchor>
          )}
        </Stack>
      </Form>
      <Divider />
      {ssoHref ? (
        <Button component="a" href={ssoHref} fullWidth data-testid="sso-sign-in">
          {t("login.sso")}
        </Button>
      ) : (
        <>
          <Button variant="default" fullWidth disabled aria-describedby="sso-note">
            {t("login.sso")}
          </Button>
          <Text id="sso-note" size="xs" c="dimmed" ta="center">
            {t("login.ssoUnavailable")}
          </Text>
        </>
      )}
    </AuthCard>
  );
}
