import { Alert, Button, Card, Group, NativeSelect, Stack, Text, Title } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LevelsTable } from "../components/hierarchy/LevelsTable";
import { loadHierarchy, saveHierarchy } from "../components/hierarchy/hierarchy.server";
import { useHydrated } from "../utils/use-hydrated";

// The storage policy hierarchy: the order in which levels are asked for a policy, most general
// first, and the firm-level policy.

export const handle = { titleKey: "pages.hierarchy" };

export async function loader({ request }: LoaderFunctionArgs) {
  return data(await loadHierarchy(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return saveHierarchy(request);
}

export default function Hierarchy() {
  const { hierarchy, storage_policy_id, policies, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  return (
    <Card withBorder maw={720}>
      <Form method="post" data-testid="hierarchy-form" data-hydrated={hydrated || undefined}>
        <Stack>
          <Text size="sm">{t("storage:hierarchy.intro")}</Text>
          {canEdit ? null : <Alert color="yellow">{t("storage:hierarchy.readOnly")}</Alert>}
          <Title order={2} size="h5">
            {t("storage:hierarchy.levels")}
          </Title>
          <LevelsTable hierarchy={hierarchy} disabled={!canEdit || busy} />
          <NativeSelect
            name="storage_policy_id"
            label={t("storage:hierarchy.firmPolicy")}
            description={t("storage:hierarchy.firmPolicyHelp")}
            defaultValue={storage_policy_id ?? ""}
            key={storage_policy_id ?? ""}
            disabled={!canEdit}
            data={[{ value: "", label: t("storage:hierarchy.noPolicy") }, ...policies.map((p) => ({ value: p.id, label: p.name }))]}
          />
          <Group justify="flex-end">
            <Button type="submit" name="intent" value="save" disabled={!canEdit} loading={busy}>
              {t("storage:hierarchy.save")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
