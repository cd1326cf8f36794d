import { ActionIcon, Badge, Card, Group, Table, Text, Title } from "../../utils/mantine";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { IconArrowDown, IconArrowUp, IconGripVertical } from "@tabler/icons-react";
import { type DragEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { recordPath } from "../../common/resources/types";
import { REGISTRY } from "../../common/resources";
import { useHydrated } from "../../utils/use-hydrated";
import { type OrderedPreference, REORDER_INTENT } from "./preference-order";

const def = REGISTRY["jurisdiction-preferences"];
const ns = "resources:jurisdiction-preferences.order";

/**
 * The preferences first to last, the first enabled one that matches a notice applies. Move
 * buttons submit the form (no JavaScript needed); with JavaScript a row can also be dragged.
 */
export function PreferenceOrder({ preferences, canReorder }: { preferences: OrderedPreference[]; canReorder: boolean }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [dragged, setDragged] = useState<string | null>(null);
  const draggable = hydrated && canReorder && !busy;
  const last = preferences.length - 1;

  const drop = (event: DragEvent, target: string) => {
    event.preventDefault();
    if (!dragged || dragged === target) return;
    const ids = preferences.map((p) => p.id).filter((id) => id !== dragged);
    ids.splice(ids.indexOf(target) + (indexOf(preferences, dragged) < indexOf(preferences, target) ? 1 : 0), 0, dragged);
    setDragged(null);
    const form = new FormData();
    form.set("intent", REORDER_INTENT);
    for (const id of ids) form.append("ids", id);
    submit(form, { method: "post" });
  };

  return (
    <Card withBorder>
      <Form method="post" data-testid="preference-order" data-hydrated={hydrated || undefined}>
        <Title order={2} size="h5" mb="xs">
          {t(`${ns}.title`)}
        </Title>
        <Text size="sm" mb="sm">
          {t(`${ns}.intro`)}
        </Text>
        {preferences.length === 0 ? (
          <Text size="sm">{t(`${ns}.none`)}</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>{t(`${ns}.position`)}</Table.Th>
                <Table.Th>{t(`${ns}.preference`)}</Table.Th>
                <Table.Th w={110}>{t(`${ns}.move`)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preferences.map((preference, index) => (
                <Table.Tr
                  key={preference.id}
                  data-preference={preference.name}
                  draggable={draggable}
                  onDragStart={() => setDragged(preference.id)}
                  onDragEnd={() => setDragged(null)}
                  onDragOver={(event) => event.preventDefault()}
                  onDrop={(event) => drop(event, preference.id)}
                  style={draggable ? { cursor: "grab" } : undefined}
                >
                  <Table.Td>{index + 1}</Table.Td>
                  <Table.Td>
                    <input type="hidden" name="ids" value={preference.id} />
                    <Group gap="xs" wrap="nowrap">
                      {draggable ? <IconGripVertical size={16} aria-hidden /> : null}
                      <Link to={recordPath(def, preference.id)}>{preference.name}</Link>
                      {preference.enabled ? null : (
                        <Badge size="sm" variant="default">
                          {t(`${ns}.disabled`)}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <MoveButton direction="up" preference={preference} disabled={!canReorder || busy || index === 0} />
                      <MoveButton direction="down" preference={preference} disabled={!canReorder || busy || index === last} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Form>
    </Card>
  );
}

const indexOf = (preferences: OrderedPreference[], id: string) => preferences.findIndex((p) => p.id === id);

function MoveButton({ direction, preference, disabled }: { direction: "up" | "down"; preference: OrderedPreference; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      type="submit"
      name="intent"
      value={`${direction}:${preference.id}`}
      variant="default"
      disabled={disabled}
      aria-label={t(direction === "up" ? `${ns}.moveUp` : `${ns}.moveDown`, { name: preference.name })}
    >
      {direction === "up" ? <IconArrowUp size={16} /> : <IconArrowDown size={16} />}
    </ActionIcon>
  );
}
