import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Alert, Badge, Button, Card, Grid, PasswordInput, Stack, Table, Text, Title } from "@mantine/core";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ANALYTICS_INTENT, AnalyticsForm } from "../components/profile/AnalyticsForm";
import { toastForApiError } from "../utils/api-errors";
import { ApiError } from "../utils/api.server";
import { requireUser, sessionFromTokens } from "../utils/auth.server";
import { changePasswordSchema } from "../utils/auth-schemas";
import { translateErrors } from "../utils/forms";
import { decodeMessage, encodeMessage } from "../shared/proto.server";
import { roleRows } from "../utils/role-rows";
import { writeSession } from "../utils/session.server";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.profile" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api, headers } = await requireUser(request);
  // The role detail is the binary UserSecurityRole message, fetched by the user's role id.
  const response = await api.raw(`/api/v1/user-security-role/${encodeURIComponent(me.securityRoleId)}`, {
    accept: "application/x-protobuf",
  });
  const role = response.ok ? decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer())) : null;
  const analytics = await api.json<{ value: { optOut?: boolean } | null }>("/api/v1/preferences/analytics").catch(() => null);
  return data({ me, analyticsOptOut: analytics?.data.value?.optOut === true, role: role ? { name: String(role.name), isSystemDefined: Boolean(role.isSystemDefined), rows: roleRows(role) } : null }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const { auth, me, api, headers: refreshed } = await requireUser(request);
  const formData = await readForm(request);
  if (formData.get("intent") === ANALYTICS_INTENT) {
    await api.json("/api/v1/preferences/analytics", { method: "PUT", json: { value: { optOut: formData.get("optOut") === "on" } } });
    return redirectWithToast(request, "/profile", { type: "success", key: "profile.analytics.saved" }, { headers: refreshed });
  }
  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
  if (submission.status !== "success") return submission.reply({ hideFields });
  const body = encodeMessage("ChangePassword", {
    currentPassword: submission.value.currentPassword,
    newPassword: submission.value.newPassword,
  });
  try {
    const { data: tokens } = await api.json<{ access_token: string; refresh_token: string; expires_in: number }>(
      `/auth/${encodeURIComponent(me.id)}/change-password`,
      { method: "PUT", body: Buffer.from(body), contentType: "application/x-protobuf" },
    );
    // The API ended every session; this one goes on with the pair it returned.
    const headers = new Headers();
    headers.append("Set-Cookie", await writeSession(request, sessionFromTokens(auth, tokens)));
    return redirectWithToast(request, "/profile", { type: "success", key: "profile.changed" }, { headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status >= 500 || error.status === 409) {
      return redirectWithToast(request, "/profile", toastForApiError(error.status, error.body.message));
    }
    const fieldErrors = error.body.fieldErrors ?? {};
    return submission.reply({
      fieldErrors: { currentPassword: fieldErrors.currentPassword ?? [], newPassword: fieldErrors.newPassword ?? [] },
      formErrors: Object.keys(fieldErrors).length ? [] : [error.body.message ?? "errors:somethingWrong"],
      hideFields,
    });
  }
}

export default function Profile() {
  const { me, role, analyticsOptOut } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
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
    <Grid>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t("profile.account")}
            </Title>
            <Text size="sm">
              <b>{t("profile.email")}:</b> {me.email}
            </Text>
            <Text size="sm">
              <b>{t("profile.fullName")}:</b> {me.fullName}
            </Text>
            <Text size="sm">
              <b>{t("profile.displayName")}:</b> {me.displayName}
            </Text>
            <Text size="sm">
              <b>{t("profile.role")}:</b> {me.roleName}
            </Text>
          </Card>
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
                <PasswordInput
                  {...getInputProps(fields.currentPassword, { type: "password" })}
                  key={fields.currentPassword.key}
                  label={t("profile.currentPassword")}
                  autoComplete="current-password"
                  error={translateErrors(t, fields.currentPassword.errors)}
                />
                <PasswordInput
                  {...getInputProps(fields.newPassword, { type: "password" })}
                  key={fields.newPassword.key}
                  label={t("profile.newPassword")}
                  autoComplete="new-password"
                  error={translateErrors(t, fields.newPassword.errors)}
                />
                <PasswordInput
                  {...getInputProps(fields.confirmPassword, { type: "password" })}
                  key={fields.confirmPassword.key}
                  label={t("profile.confirmPassword")}
                  autoComplete="new-password"
                  error={translateErrors(t, fields.confirmPassword.errors)}
                />
                <Button type="submit">{t("profile.submit")}</Button>
              </Stack>
            </Form>
          </Card>
          <AnalyticsForm optOut={analyticsOptOut} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t("profile.roleDetails")}: {role?.name}{" "}
            {role?.isSystemDefined ? <Badge variant="light">{t("profile.systemDefined")}</Badge> : null}
          </Title>
          <Table striped data-testid="role-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("profile.resource")}</Table.Th>
                <Table.Th>{t("profile.access")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(role?.rows ?? []).map((row) => (
                <Table.Tr key={row.resource}>
                  <Table.Td>{t(`resourceTypes.${row.resource}`)}</Table.Td>
                  <Table.Td>{t(`access.${row.access}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      </Grid.Col>
    </Grid>
  );
}
