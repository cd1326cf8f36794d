import { Alert, Anchor, Button, Card, Code, Group, Stack, Text, TextInput, Textarea, Title } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { loadSsoSettings, saveSsoSettings } from "../utils/sso-settings.server";

// The firm's single sign-on (decision 099): what to give the identity provider (this service
// provider's addresses and certificate), and the identity provider itself, by metadata address,
// uploaded metadata, or by hand. The sign-on type is switched on Firm Information.

export const handle = { titleKey: "pages.singleSignOn" };

export const loader = ({ request }: LoaderFunctionArgs) => loadSsoSettings(request);

export const action = ({ request }: ActionFunctionArgs) => saveSsoSettings(request);

const FIELDS = [
  { name: "idp_metadata_url", multiline: false },
  { name: "idp_metadata_xml", multiline: true },
  { name: "idp_entity_id", multiline: false },
  { name: "idp_sso_url", multiline: false },
  { name: "idp_slo_url", multiline: false },
  { name: "idp_certificates", multiline: true },
  { name: "email_attribute", multiline: false },
  { name: "break_glass_email", multiline: false },
  { name: "group_attribute", multiline: false },
  { name: "group_roles", multiline: true },
  { name: "oidc_issuer", multiline: false },
  { name: "oidc_client_id", multiline: false },
  { name: "oidc_client_secret", multiline: false },
] as const;

export default function SingleSignOn() {
  const { t } = useTranslation(["firm", "errors"]);
  const { settings, canEdit } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const navigation = useNavigation();
  // The client secret is never shown back; an empty one keeps the secret already kept.
  const { oidc_client_secret_kept: _kept, ...shown } = settings;
  const values: Record<string, string> = { ...shown, idp_metadata_xml: "", ...(posted?.values ?? {}), oidc_client_secret: "" };
  const fieldError = (name: string) => {
    const key = posted?.fieldErrors?.[name]?.[0];
    return key ? t(key, { ns: "errors", defaultValue: key }) : undefined;
  };
  return (
    <Stack maw={1000}>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          {t("sso.spTitle")}
        </Title>
        <Text size="sm" mb="sm">
          {t("sso.spHelp")}
        </Text>
        <Stack gap={4}>
          <Text size="sm">
            {t("sso.spMetadata")}:{" "}
            <Anchor href="/auth/saml/metadata" data-testid="sp-metadata">
              {settings.sp_entity_id}
            </Anchor>
          </Text>
          <Text size="sm">
            {t("sso.spEntityId")}: <Code>{settings.sp_entity_id}</Code>
          </Text>
          <Text size="sm">
            {t("sso.spAcs")}: <Code>{settings.sp_acs_url}</Code>
          </Text>
          <Text size="sm">
            {t("sso.spSlo")}: <Code>{settings.sp_slo_url}</Code>
          </Text>
          <Text size="sm">
            {t("sso.oidcRedirect")}: <Code>{settings.oidc_redirect_url}</Code>
          </Text>
          <Text size="sm">
            {t("sso.oidcLogout")}: <Code>{settings.oidc_logout_url}</Code>
          </Text>
          <Text size="sm">
            {t("sso.signonType")}: <Code data-testid="signon-type">{settings.signon_type}</Code>{" "}
            <Anchor component={Link} to="/firm-information">
              {t("sso.switch")}
            </Anchor>
          </Text>
        </Stack>
      </Card>
      <Card withBorder>
        <Form method="post">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t("sso.idpTitle")}
            </Title>
            {posted?.error ? (
              <Alert color="red" role="alert" data-testid="sso-error">
                {posted.error.startsWith("errors:") ? t(posted.error) : posted.error}
              </Alert>
            ) : null}
            {FIELDS.map(({ name, multiline }) => {
              const props = {
                name,
                label: t(`sso.fields.${name}`),
                description: t(`sso.hints.${name}`, { defaultValue: "" }) || undefined,
                defaultValue: values[name] ?? "",
                error: fieldError(name),
                disabled: !canEdit,
              };
              if (multiline) return <Textarea key={name} {...props} autosize minRows={2} maxRows={12} />;
              return <TextInput key={name} {...props} type={name === "oidc_client_secret" ? "password" : "text"} autoComplete="off" />;
            })}
            {canEdit ? (
              <Group>
                <Button type="submit" loading={navigation.state === "submitting"}>
                  {t("sso.save")}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
