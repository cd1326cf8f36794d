import { Alert, Anchor, Button, Card, Group, List, Stack, Stepper, Text, TextInput, Title } from "../../utils/mantine";
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
import { type MatrixRow, ROLE_STEPS, type RoleEditorData, type RoleValues, USERS_INPUT, accessInput, areaWasInput, fieldInput } from "./role-values";

const LIST = `/${securityRoles.key}`;

/** The first step's values on the rights step: posted again with them, never shown. */
function CarriedWho({ values }: { values: RoleValues }) {
  return (
    <>
      <input type="hidden" name="name" value={values.name} />
      {values.userIds.map((userId) => (
        <input key={userId} type="hidden" name={USERS_INPUT} value={userId} />
      ))}
    </>
  );
}

/** The rights as they stand, on the first step: posted again with it, never shown. */
function CarriedRights({ rows }: { rows: MatrixRow[] }) {
  return (
    <>
      {rows.map((row) => (
        <div key={row.type} hidden>
          <input type="hidden" name={accessInput(row.type)} value={row.access} />
          <input type="hidden" name={areaWasInput(row.type)} value={row.access} />
          {row.fields.map((f) => (
            <input key={f.name} type="hidden" name={fieldInput(row.type, f.name)} value={f.access} />
          ))}
        </div>
      ))}
    </>
  );
}

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
  // A new role is a stepper like every other "new" page (spec §2): who, then the rights.
  const stepped = !id && editable;
  const step = stepped ? editor.step : 0;
  const showWho = !stepped || step === 0;
  const showRights = !stepped || step === 1;

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
        {stepped ? (
          <>
            <Stepper active={step} size="sm" mb="lg" allowNextStepsSelect={false}>
              {ROLE_STEPS.map((name) => (
                <Stepper.Step key={name} label={t(`roles:${name}`)} />
              ))}
            </Stepper>
            <Text size="xs" c="dimmed" mb="sm" data-testid="wizard-step">
              {t("wizard:stepOf", { step: step + 1, count: ROLE_STEPS.length, name: t(`roles:${ROLE_STEPS[step]}`) })}
            </Text>
          </>
        ) : null}
        <Form method="post" action={path} noValidate data-hydrated={hydrated || undefined} key={posted?.formKey ?? id ?? "new"}>
          {editable ? <DefaultSubmit value={stepped && step === 0 ? "next" : "save"} /> : null}
          <Stack>
            <FormErrorAlert error={translateErrors(t, posted?.formError ? [posted.formError] : undefined)} />
            {/* A new role asks in steps, the other step's values carried along unseen. */}
            {showWho ? (
              <>
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
              </>
            ) : (
              <CarriedWho values={values} />
            )}
            {showRights ? (
              <>
                <Title order={3} size="h5">
                  {t("roles:matrix")}
                </Title>
                <PermissionMatrix rows={values.matrix} disabled={!editable} />
              </>
            ) : (
              <CarriedRights rows={values.matrix} />
            )}
            {editable ? (
              <Group justify={stepped ? "space-between" : "flex-end"}>
                <Anchor component={Link} to={id ? path : LIST} size="sm">
                  {t("wizard:cancel")}
                </Anchor>
                <Group gap="sm">
                  {stepped && step > 0 ? (
                    <Button type="submit" name={INTENT_FIELD} value="back" variant="default" formNoValidate disabled={busy}>
                      {t("wizard:back")}
                    </Button>
                  ) : null}
                  {stepped && step === 0 ? (
                    <Button type="submit" name={INTENT_FIELD} value="next" loading={busy}>
                      {t("wizard:next")}
                    </Button>
                  ) : (
                    <Button type="submit" name={INTENT_FIELD} value="save" loading={busy}>
                      {id ? t("wizard:save") : t("wizard:create")}
                    </Button>
                  )}
                </Group>
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
