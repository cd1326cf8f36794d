import { ActionIcon, Alert, Button, Card, Group, NativeSelect, Stack, Table, Text, Title } from "@mantine/core";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { IconArrowDown, IconArrowUp } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { HIERARCHY_LEVELS, type HierarchyLevel } from "../shared/resources/storage";
import { allows } from "../shared/access";
import { ApiError } from "../utils/api.server";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";
import { useHydrated } from "../utils/use-hydrated";
import { readForm } from "../utils/request-body.server";

// The storage policy hierarchy: the order in which levels are asked for a policy, most general
// first, and the firm-level policy. Every button submits the whole form and saves at once, so
// moving a level works the same with and without JavaScript.

export const handle = { titleKey: "pages.hierarchy" };

interface HierarchySettings {
  hierarchy: HierarchyLevel[];
  storage_policy_id: string | null;
  policies: { id: string; name: string }[];
}

const API_PATH = "/api/v1/firm/storage-hierarchy";

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api, headers } = await requireUser(request, "firmAccess");
  const { data: settings } = await api.json<HierarchySettings>(API_PATH);
  return data({ ...settings, canEdit: allows(me.userRole.firmAccess, "write") }, { headers });
}

const isLevel = (value: unknown): value is HierarchyLevel => typeof value === "string" && (HIERARCHY_LEVELS as readonly string[]).includes(value);

/** The order with one level moved a place up or down; unchanged when it cannot move. */
function moved(order: HierarchyLevel[], intent: string): HierarchyLevel[] {
  const [direction, level] = intent.split(":");
  const from = order.indexOf(level as HierarchyLevel);
  const to = direction === "up" ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= order.length) return order;
  const next = [...order];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readForm(request);
  const order = form.getAll("hierarchy").filter(isLevel);
  const hierarchy = moved(order, String(form.get("intent") ?? "save"));
  const policy = String(form.get("storage_policy_id") ?? "");
  try {
    await api.json(API_PATH, { method: "PUT", json: { hierarchy, storage_policy_id: policy || null } });
  } catch (error) {
    // A refused or invalid order gets the spec's toast; an ended session still goes to sign-in.
    if (!(error instanceof ApiError)) throw error;
    return redirectWithToast(request, "/hierarchy", { type: "error", key: "errors:updatingOrder" });
  }
  return redirectWithToast(request, "/hierarchy", { type: "success", key: "storage:hierarchy.saved" });
}

export default function Hierarchy() {
  const { hierarchy, storage_policy_id, policies, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  const label = (level: HierarchyLevel) => t(`storage:levels.${level}`);
  return (
    <Card withBorder maw={720}>
      <Form method="post" data-testid="hierarchy-form" data-hydrated={hydrated || undefined}>
        <Stack>
          <Text size="sm">{t("storage:hierarchy.intro")}</Text>
          {canEdit ? null : <Alert color="yellow">{t("storage:hierarchy.readOnly")}</Alert>}
          <Title order={2} size="h5">
            {t("storage:hierarchy.levels")}
          </Title>
          <Table striped data-testid="hierarchy-levels">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>{t("storage:hierarchy.position")}</Table.Th>
                <Table.Th>{t("storage:hierarchy.level")}</Table.Th>
                <Table.Th w={110}>{t("storage:hierarchy.move")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hierarchy.map((level, index) => (
                <Table.Tr key={level} data-level={level}>
                  <Table.Td>{index + 1}</Table.Td>
                  <Table.Td>
                    <input type="hidden" name="hierarchy" value={level} />
                    {label(level)}
                    {index === 0 || index === hierarchy.length - 1 ? (
                      <Text span size="xs" c="dimmed" ml="xs">
                        ({t(index === 0 ? "storage:hierarchy.mostGeneral" : "storage:hierarchy.mostSpecific")})
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        type="submit"
                        name="intent"
                        value={`up:${level}`}
                        variant="default"
                        disabled={!canEdit || busy || index === 0}
                        aria-label={t("storage:hierarchy.moveUp", { level: label(level) })}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        type="submit"
                        name="intent"
                        value={`down:${level}`}
                        variant="default"
                        disabled={!canEdit || busy || index === hierarchy.length - 1}
                        aria-label={t("storage:hierarchy.moveDown", { level: label(level) })}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
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
