import { Alert, Anchor, Button, Card, Group, List, Stack, Text, TextInput, Title } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { securityRoles } from "../../common/resources/security-roles";
import { translateErrors } from "../../utils/forms";
import { useHydrated } from "../../utils/use-hydrated";
import { INTENT_FIELD } from "../../utils/wizard-state";
import { DefaultSubmit } from "../fields/DefaultSubmit";
import { DeleteRecord } from "../fields/DeleteRecord";
import { FormErrorAlert } from "../fields/FormErrorAlert";
import { ReferencePicker } from "../fields/ReferencePicker";
import { PermissionMatrix } from "./PermissionMatrix";
import { type RoleEditorData, USERS_INPUT } from "./role-values";

const LIST = `/${securityRoles.key}`;

export interface Posted {
  editor?: RoleEditorData;
  fieldErrors?: Record<string, string[]>;
  formError?: string;
  confirmDelete?: true;
  formKey?: string;
}

/** The role page: name, users and the permission matrix; read-only for the admin role and for roles that may only view. */
export function RoleEditor({ loaded, posted }: { loaded: RoleEditorData; posted?: Posted }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const busy = useNavigation().state !== "idle";
  const editor = posted?.editor ?? loaded;
  const { id, values, fixed, canWrite } = editor;
  const editable = canWrite && !fixed;
  const path = id ? `${LIST}/${encodeURIComponent(id)}` : `${LIST}/new`;
  const errorOf = (field: string) => translateErrors(t, posted?.fieldErrors?.[field]);

  return (
    <Stack maw={1000}>
      <Group justify="space-between">
        <Anchor component={Link} to={LIST} size="sm">
          {t("wizard:backToList", { resource: securityRoles.key })}
        </Anchor>
        {id && editable ? <DeleteRecord confirming={false} title={loaded.values.name} action={path} /> : null}
      </Group>
      {posted?.confirmDelete ? <DeleteRecord confirming title={loaded.values.name} action={path} /> : null}
      <Text size="sm">{t("roles:intro")}</Text>
      {fixed ? (
        <Alert color="blue" data-testid="admin-role">
          {t("roles:adminReadOnly")}
        </Alert>
      ) : null}
      {!canWrite ? (
        <Text size="sm" c="dimmed" data-testid="read-only">
          {t("wizard:readOnly")}
        </Text>
      ) : null}
      <Card withBorder>
        <Form method="post" action={path} noValidate data-hydrated={hydrated || undefined} key={posted?.formKey ?? id ?? "new"}>
          {editable ? <DefaultSubmit value="save" /> : null}
          <Stack>
            <FormErrorAlert error={translateErrors(t, posted?.formError ? [posted.formError] : undefined)} />
            <TextInput
              name="name"
              label={t("roles:name")}
              defaultValue={values.name}
              withAsterisk={editable}
              readOnly={!editable}
              error={errorOf("name")}
              maxLength={200}
            />
            {editable ? (
              <Stack gap={4}>
                <ReferencePicker
                  id="role-users"
                  name={USERS_INPUT}
                  label={t("roles:users")}
                  error={errorOf(USERS_INPUT)}
                  withAsterisk
                  reference="users"
                  multiple
                  initial={values.userIds}
                  data={editor.users}
                />
                <Text size="xs" c="dimmed">
                  {t("roles:usersHint")}
                </Text>
              </Stack>
            ) : (
              <div>
                <Title order={3} size="h5">
                  {t("roles:users")}
                </Title>
                <List size="sm" data-testid="role-users">
                  {values.userIds.map((userId) => (
                    <List.Item key={userId}>{editor.userNames[userId] ?? userId}</List.Item>
                  ))}
                </List>
              </div>
            )}
            <Title order={3} size="h5">
              {t("roles:matrix")}
            </Title>
            <PermissionMatrix rows={values.matrix} disabled={!editable} />
            {editable ? (
              <Group justify="flex-end">
                <Anchor component={Link} to={id ? path : LIST} size="sm">
                  {t("wizard:cancel")}
                </Anchor>
                <Button type="submit" name={INTENT_FIELD} value="save" loading={busy}>
                  {id ? t("wizard:save") : t("wizard:create")}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
