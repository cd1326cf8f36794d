import { Alert, Button, Card, Code, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../utils/api.server";
import { requireUser } from "../utils/auth.server";
import { readForm } from "../utils/request-body.server";
import { useFormatMoment } from "../utils/dates";
import { redirectWithToast } from "../utils/toast.server";
import { useHydrated } from "../utils/use-hydrated";

// SCIM provisioning (decision 101): the firm's administrators make and revoke the tokens its
// identity provider uses, and map the provider's groups to security roles. Plain forms, so it
// works with JavaScript off; a new token is shown once, in the answer to the form that made it.

export const handle = { titleKey: "pages.scim" };

interface Settings {
  tokens: { id: string; label: string; createdBy: string; createdAt: number; lastUsedAt: number | null }[];
  groups: { id: string; displayName: string; members: number; securityRoleId: string | null }[];
  roles: { id: string; name: string }[];
}

const PAGE = "/scim-provisioning";

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api } = await requireUser(request, "firmAccess");
  if (!me.isAdmin) return data({ allowed: false as const });
  const { data: settings } = await api.json<Settings>("/api/v1/scim");
  return data({ allowed: true as const, endpoint: `${new URL(request.url).origin}/scim/v2`, ...settings });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readForm(request);
  const intent = form.get("intent");
  try {
    if (intent === "create") {
      const { data: made } = await api.json<{ id: string; token: string }>("/api/v1/scim/tokens", {
        method: "POST",
        json: { label: String(form.get("label") ?? "") },
      });
      return data({ token: made.token, error: undefined });
    }
    if (intent === "revoke") {
      await api.json(`/api/v1/scim/tokens/${encodeURIComponent(String(form.get("id") ?? ""))}`, { method: "DELETE" });
      return redirectWithToast(request, PAGE, { type: "success", key: "scim.revoked" });
    }
    if (intent === "map") {
      for (const [name, value] of form.entries()) {
        if (!name.startsWith("role:") || form.get(`was:${name.slice(5)}`) === value) continue;
        await api.json(`/api/v1/scim/groups/${encodeURIComponent(name.slice(5))}`, { method: "PUT", json: { security_role_id: String(value) || null } });
      }
      return redirectWithToast(request, PAGE, { type: "success", key: "scim.saved" });
    }
    return data({ token: undefined, error: "errors:invalidRequest" }, { status: 400 });
  } catch (error) {
    // The API's refusal (an empty label, a role above the caller's own, the last administrator) in its words.
    if (error instanceof ApiError && error.status < 500) {
      const fields = Object.values(error.body.fieldErrors ?? {}).flat();
      return data({ token: undefined, error: [error.body.message, ...fields].filter(Boolean).join(" ") }, { status: error.status });
    }
    throw error;
  }
}

export default function ScimProvisioning() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { t } = useTranslation();
  const moment = useFormatMoment();
  const hydrated = useHydrated() || undefined;
  if (!loaded.allowed) return <Alert color="yellow">{t("errors:scimAdminsOnly")}</Alert>;
  const { endpoint, tokens, groups, roles } = loaded;
  return (
    <Stack maw={1000}>
      <Card withBorder>
        <Text size="sm" mb="sm">
          {t("scim.intro")}
        </Text>
        <Text size="sm" fw={600}>
          {t("scim.endpoint")}
        </Text>
        <Code data-testid="scim-endpoint">{endpoint}</Code>
      </Card>

      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t("scim.tokens")}
        </Title>
        {posted?.error ? (
          <Alert color="red" mb="sm" role="alert">
            {t(posted.error)}
          </Alert>
        ) : null}
        {posted?.token ? (
          <Alert color="green" mb="sm" title={t("scim.created")}>
            <Code block data-testid="scim-new-token">
              {posted.token}
            </Code>
          </Alert>
        ) : null}
        {tokens.length === 0 ? <Text size="sm">{t("scim.noTokens")}</Text> : null}
        <Stack gap="xs" mb="md">
          {tokens.map((token) => (
            <Form method="post" key={token.id} aria-label={token.label} data-hydrated={hydrated}>
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="id" value={token.id} />
              <Group justify="space-between" wrap="nowrap">
                <div>
                  <Text fw={600}>{token.label}</Text>
                  <Text size="xs" c="dimmed">
                    {t("scim.createdBy", { who: token.createdBy, when: moment(token.createdAt) })} ·{" "}
                    {token.lastUsedAt ? t("scim.lastUsed", { when: moment(token.lastUsedAt) }) : t("scim.neverUsed")}
                  </Text>
                </div>
                <Button type="submit" color="red" variant="light">
                  {t("scim.revoke")}
                </Button>
              </Group>
            </Form>
          ))}
        </Stack>
        <Form method="post" aria-label={t("scim.create")} data-hydrated={hydrated}>
          <input type="hidden" name="intent" value="create" />
          <Group align="flex-end">
            <TextInput name="label" label={t("scim.label")} description={t("scim.labelHint")} required maxLength={100} />
            <Button type="submit">{t("scim.create")}</Button>
          </Group>
        </Form>
      </Card>

      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          {t("scim.groups")}
        </Title>
        <Text size="sm" mb="sm">
          {t("scim.groupsIntro")}
        </Text>
        {groups.length === 0 ? (
          <Text size="sm">{t("scim.noGroups")}</Text>
        ) : (
          <Form method="post" aria-label={t("scim.groups")} data-hydrated={hydrated}>
            <input type="hidden" name="intent" value="map" />
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("scim.group")}</Table.Th>
                  <Table.Th ta="right">{t("scim.members")}</Table.Th>
                  <Table.Th>{t("scim.role")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td>{group.displayName}</Table.Td>
                    <Table.Td ta="right">{group.members}</Table.Td>
                    <Table.Td>
                      <input type="hidden" name={`was:${group.id}`} value={group.securityRoleId ?? ""} />
                      <NativeSelect
                        name={`role:${group.id}`}
                        aria-label={t("scim.role")}
                        defaultValue={group.securityRoleId ?? ""}
                        data={[{ value: "", label: t("scim.noRole") }, ...roles.map((role) => ({ value: role.id, label: role.name }))]}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Button type="submit" mt="sm">
              {t("scim.save")}
            </Button>
          </Form>
        )}
      </Card>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
